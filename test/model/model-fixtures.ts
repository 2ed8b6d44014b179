import type pg from 'pg';
import request from 'supertest';
import { importText } from '../../src/import/import-file.js';
import { USERS } from '../helpers/test-app.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';
import { useTestApp, type TestAppHandle } from '../helpers/use-test-app.js';

export type User = readonly [string, string];

/** The names of one test file's records: its two containers and a prefix for numbers. */
export interface ModelNames {
  /** Read by alice (author), bob and carol (readers). */
  main: string;
  /** Read by carol only. */
  secret: string;
  /** A number (or name) of this file: `<tag><pid>-<suffix>`. */
  n(suffix: string): string;
  /** A dataset object numbered `n(number)` that alice created in the main container; `more` adds or overrides. */
  object(cls: string, number: string, name: string, more?: Record<string, unknown>): Record<string, unknown>;
}

export interface ModelDataOptions {
  /** Soft types the dataset declares start with this (`com.acme.xy.`): removed after the file. */
  softTypes?: string;
}

export interface ModelFixture {
  names: ModelNames;
  t: TestAppHandle;
  db(): pg.Pool;
  /** The rows a template gives the user (200 expected), as arrays of values in select order. */
  rows(qml: string, user?: User): Promise<unknown[][]>;
  /** The answer to a template, whatever its status. */
  answer(qml: string, user?: User): Promise<request.Response>;
  /**
   * Merges modeled properties into masters of `cls`, by number suffix (the import fills only
   * iterations' JSON). Call in a `beforeAll` after useModelData's.
   */
  masterAttributes(cls: string, bySuffix: Record<string, Record<string, unknown>>): Promise<void>;
}

/**
 * A test file's data, imported through a dataset (docs/dataset-format.md) into two containers of
 * its own before its tests, and removed after them, with the application to run templates on.
 * `containers` are added to the dataset; the rest of it is the file's.
 */
export function useModelData(
  tag: string,
  dataset: (n: ModelNames) => Record<string, unknown>,
  options: ModelDataOptions = {},
): ModelFixture {
  const n = (suffix: string) => `${tag}${process.pid}-${suffix}`;
  const main = `${tag} main ${process.pid}`;
  const names: ModelNames = {
    main,
    secret: `${tag} secret ${process.pid}`,
    n,
    object: (cls, number, name, more = {}) => ({
      class: cls,
      number: n(number),
      name,
      container: main,
      createdBy: 'alice',
      ...more,
    }),
  };
  const containers = [names.main, names.secret];
  const t = useTestApp({ CATALOG_CHECK_INTERVAL_MS: '0' });
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    pool = testPool();
    const data = dataset(names);
    await importText(
      JSON.stringify({
        format: 'pdm-dataset/1',
        containers: [
          {
            name: names.main,
            class: 'wt.pdmlink.PDMLinkProduct',
            members: { alice: 'author', bob: 'reader', carol: 'reader' },
          },
          { name: names.secret, class: 'wt.pdmlink.PDMLinkProduct', members: { carol: 'author' } },
        ],
        ...data,
      }),
      `${tag} dataset`,
      testDatabaseUrl(),
    );
  });
  afterAll(async () => {
    const db = pool!;
    const ids = `(SELECT id FROM containers WHERE name = ANY($1))`;
    await db.query(`DELETE FROM links WHERE container_id IN ${ids}`, [containers]);
    await db.query(`DELETE FROM objects WHERE container_id IN ${ids} OR number LIKE $2 OR name LIKE $2`, [
      containers,
      `${tag}${process.pid}-%`,
    ]);
    await db.query(`DELETE FROM masters WHERE container_id IN ${ids}`, [containers]);
    await db.query(`DELETE FROM audit_events WHERE container_id IN ${ids}`, [containers]);
    await db.query('DELETE FROM containers WHERE name = ANY($1)', [containers]);
    // Other files list the declared soft types: this file's go with its data.
    if (options.softTypes) await db.query('DELETE FROM catalog_types WHERE name LIKE $1', [`${options.softTypes}%`]);
    await db.end();
  });
  const answer = (qml: string, user: User = USERS.alice) =>
    request(t.http)
      .post('/reports?format=json')
      .auth(...user)
      .set('Content-Type', 'text/xml')
      .send(qml);
  return {
    names,
    t,
    db: () => pool!,
    answer,
    async rows(qml, user = USERS.alice) {
      const res = await answer(qml, user);
      if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.items as unknown[][];
    },
    async masterAttributes(cls, bySuffix) {
      for (const [suffix, values] of Object.entries(bySuffix)) {
        await pool!.query('UPDATE masters SET attributes = attributes || $1::jsonb WHERE class = $2 AND number = $3', [
          JSON.stringify(values),
          cls,
          n(suffix),
        ]);
      }
    },
  };
}

/** A `<condition>` on a column and a constant, as the statement layout writes it. */
export function condition(alias: string, path: string, op: string, value: string, type = 'java.lang.String'): string {
  return (
    `<condition><operand><column alias="${alias}" propertyName="${path}">${path}</column></operand>` +
    `<operator type="${op}"/><operand><constant type="${type}" isMacro="false" xml:space="preserve">${value}</constant></operand></condition>`
  );
}

/** `iterationInfo.latest = 1`, as exports write it. */
export const latest = (alias: string) => condition(alias, 'iterationInfo.latest', 'equal', '1', 'boolean');

/**
 * A `<reportAttribute>` of the query layout around `column`, its id the heading with `_` for what
 * is no word character, as exports write it.
 */
export function reportAttribute(heading: string, column: string, userCanConstrain = true): string {
  return (
    `<reportAttribute heading="${heading}" reportAttributeId="${heading.replace(/\W+/g, '_')}" userCanSelect="true" ` +
    `userCanConstrain="${userCanConstrain}" alwaysSelect="false" defaultValue="" constantValue="" isMacro="false">${column}</reportAttribute>`
  );
}

/**
 * The query layout's conditions of the `Related…` plant data exports on their `Part` alias: the
 * latest iteration of the part numbered `number`.
 */
export function latestPartNumbered(number: string): string {
  return `<condition><standardCondition>
    <operand><column alias="Part" isExternal="false" type="java.lang.String" propertyName="number">master&gt;number</column></operand>
    <operator type="equal"/>
    <operand><constant type="java.lang.String" isMacro="false" xml:space="preserve">${number}</constant></operand>
</standardCondition></condition>
<condition><standardCondition>
    <operand><column alias="Part" isExternal="false" type="boolean" propertyName="latestIteration">iterationInfo.latest</column></operand>
    <operator type="equal"/>
    <operand><constant type="boolean" isMacro="false" xml:space="preserve">1</constant></operand>
</standardCondition></condition>`;
}

export const ED = 'com.ptc.windchill.enterprise.data.EnterpriseData';
export const PFD = 'com.ptc.windchill.enterprise.data.PlantFunctionalData';

/**
 * The linkJoins of those exports from `Part` through its `View Specific Enterprise Data` to the
 * plant data masters aliased `master`.
 */
export function plantDataLinks(master: string): string {
  return `<join name="${ED}Link">
    <fromAliasTarget alias="Part"/>
    <toAliasTarget alias="View Specific Enterprise Data"/>
</join>
<join name="${PFD}Link">
    <fromAliasTarget alias="View Specific Enterprise Data"/>
    <toAliasTarget alias="${master}"/>
</join>`;
}

/** The referenceJoin of those exports from the enterprise data to its `View`. */
export const VIEW_JOIN = `<join name="view">
    <fromAliasTarget alias="View Specific Enterprise Data"/>
    <toAliasTarget alias="View"/>
</join>`;
