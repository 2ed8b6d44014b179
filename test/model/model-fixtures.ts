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
}

export interface ModelFixture {
  names: ModelNames;
  t: TestAppHandle;
  db(): pg.Pool;
  /** The rows a template gives the user (200 expected), as arrays of values in select order. */
  rows(qml: string, user?: User): Promise<unknown[][]>;
  /** The answer to a template, whatever its status. */
  answer(qml: string, user?: User): Promise<request.Response>;
}

/**
 * A test file's data, imported through a dataset (docs/dataset-format.md) into two containers of
 * its own before its tests, and removed after them, with the application to run templates on.
 * `containers` are added to the dataset; the rest of it is the file's.
 */
export function useModelData(tag: string, dataset: (n: ModelNames) => Record<string, unknown>): ModelFixture {
  const names: ModelNames = {
    main: `${tag} main ${process.pid}`,
    secret: `${tag} secret ${process.pid}`,
    n: (suffix) => `${tag}${process.pid}-${suffix}`,
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
