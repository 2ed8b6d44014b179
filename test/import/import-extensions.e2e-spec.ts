import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import request from 'supertest';
import { DatasetError } from '../../src/import/dataset.js';
import { importText } from '../../src/import/import-file.js';
import { LOCK_WAIT_MS, lockWaiters, withinMs } from '../helpers/bounded-wait.js';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/import/import.cli.js');
const PART = 'wt.part.WTPart';
const DOC = 'wt.doc.WTDocument';
const SUPPLIER = 'com.ptc.windchill.suma.supplier.Supplier';

/** A site's modeled attributes of parts and documents, and data that fills them. */
const SITE = {
  format: 'pdm-dataset/1',
  types: {
    extensions: [
      {
        class: PART,
        properties: {
          acmeCostCenter: { type: 'string', json: 'acmeCostCenter', about: 'the cost center paying for it' },
          acmeUnitCost: { type: 'double', json: 'acmeUnitCost' },
        },
        derived: { acmeDesigner: { type: 'string', column: 'full_name', via: 'creator' } },
        references: { acmeSupplier: { target: SUPPLIER, json: 'acmeSupplier' } },
      },
      // Documents already keep a `language` attribute (demo data): modeled now as a property.
      { class: DOC, properties: { acmeLanguage: { type: 'string', json: 'language' } } },
    ],
  },
  objects: [
    { class: SUPPLIER, number: 'EXT-S-1', name: 'Acme Castings', container: 'Drive Unit' },
    { class: SUPPLIER, number: 'EXT-S-2', name: 'Hidden Works', container: 'Secret Project' },
    ...[
      { iteration: 1, cost: 12.5 },
      { iteration: 2, cost: 14 },
    ].map(({ iteration, cost }) => ({
      class: PART,
      number: 'EXT-P-1',
      name: 'Gear housing',
      container: 'Drive Unit',
      iteration,
      createdBy: 'alice',
      properties: { acmeCostCenter: 'CC-100', acmeUnitCost: cost },
      references: { acmeSupplier: 'EXT-S-1' },
    })),
    {
      class: PART,
      number: 'EXT-P-2',
      name: 'Shim',
      container: 'Drive Unit',
      properties: { acmeCostCenter: 'CC-200', acmeUnitCost: 0.25 },
    },
    {
      class: PART,
      number: 'EXT-P-3',
      name: 'Prototype rotor',
      container: 'Secret Project',
      createdBy: 'carol',
      properties: { acmeCostCenter: 'CC-100', acmeUnitCost: 99 },
      references: { acmeSupplier: 'EXT-S-2' },
    },
    {
      class: DOC,
      number: 'EXT-D-1',
      name: 'Pflichtenheft',
      container: 'Drive Unit',
      properties: { acmeLanguage: 'de' },
    },
    {
      class: DOC,
      number: 'EXT-D-2',
      name: 'Geheimplan',
      container: 'Secret Project',
      properties: { acmeLanguage: 'de' },
    },
  ],
};

const qml = (select: string, from: string, rest = '') =>
  `<qml><statement><query><select>${select}</select><from>${from}</from>${rest}</query></statement></qml>`;
const where = (...conditions: string[]) =>
  `<where><compositeCondition type="and">${conditions.join('')}</compositeCondition></where>`;
const equal = (alias: string, path: string, value: string) =>
  `<condition><operand><column alias="${alias}">${path}</column></operand><operator type="equal"/><operand><constant>${value}</constant></operand></condition>`;
const byNumber = '<orderBy><orderByItem><columnTarget heading="Number"/></orderByItem></orderBy>';

/** Cost center CC-100: every iteration, or only the latest ones. */
const costCenter = (latest: boolean) =>
  qml(
    '<column alias="P" heading="Number">number</column><object alias="P" heading="Version" propertyName="iterationDisplayIdentifier"/>' +
      '<column alias="P">acmeCostCenter</column><column alias="P">acmeUnitCost</column>',
    `<table alias="P">${PART}</table>`,
    where(equal('P', 'acmeCostCenter', 'CC-100'), ...(latest ? [equal('P', 'iterationInfo.latest', 'true')] : [])) +
      `${byNumber.replace('</orderByItem>', '</orderByItem><orderByItem><columnTarget heading="Version"/></orderByItem>')}`,
  );

/** The supplier of each latest part through the added reference, and its designer (a derived property). */
const suppliers = qml(
  '<column alias="P" heading="Number">number</column><column alias="S">name</column><object alias="P" propertyName="acmeDesigner"/>',
  `<table alias="P">${PART}</table><table alias="S">${SUPPLIER}</table>`,
  where(equal('P', 'iterationInfo.latest', 'true')) +
    byNumber +
    '<referenceJoin><join name="acmeSupplier"><aliasTarget alias="P"/><aliasTarget alias="S"/></join></referenceJoin>',
);

const germanDocuments = qml(
  '<column alias="D" heading="Number">number</column><column alias="D">acmeLanguage</column>',
  `<table alias="D">${DOC}</table>`,
  where(equal('D', 'acmeLanguage', 'de'), equal('D', 'iterationInfo.latest', 'true')) + byNumber,
);

/** Every row of the tables an import writes, to prove one changed nothing. */
async function snapshot(db: pg.Pool): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of ['catalog_types', 'masters', 'iterations', 'objects', 'audit_events']) {
    const { rows } = await db.query<{ h: string }>(
      `SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS h FROM ${table} t`,
    );
    out[table] = rows[0].h;
  }
  return out;
}

/**
 * A dataset extends standard classes: a property, a derived property and a reference of parts,
 * a property of documents. Templates, `q` queries and the catalog see them on the next request
 * (CATALOG_CHECK_INTERVAL_MS=0), through each reader's permissions; the same extension again
 * changes nothing, a later one adds more, a clashing one stores nothing and says why.
 */
describe('extending standard classes by a dataset', () => {
  let scratch: ScratchDatabase;
  let db: pg.Pool;
  // A database of its own, made before the application starts on it: the extensions change the
  // catalog every other file reads.
  beforeAll(async () => {
    scratch = await scratchDatabase({ demo: true });
    db = new pg.Pool({ connectionString: scratch.url, max: 3 });
  });
  afterAll(async () => {
    await db?.end();
    await scratch?.drop();
  });
  const t = useTestApp(() => ({ DATABASE_URL: scratch.url, CATALOG_CHECK_INTERVAL_MS: '0' }));
  const load = (data: unknown, name = 'extensions') => importText(JSON.stringify(data), name, scratch.url);
  const post = (doc: string, user: readonly [string, string]) =>
    request(t.http)
      .post('/reports')
      .auth(...user)
      .set('Content-Type', 'text/xml')
      .send(doc);
  const rows = async (doc: string, user: readonly [string, string]) => {
    const res = await post(doc, user);
    expect({ status: res.status, message: res.body.message as unknown }).toEqual({ status: 200, message: undefined });
    return res.body.items as unknown[][];
  };

  it('refuses a template reading a property no extension added yet', async () => {
    const res = await post(costCenter(true), USERS.alice);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/: unknown property "acmeCostCenter" of wt\.part\.WTPart/);
  });

  it('imports the extensions with data, and templates read the new entries as each reader may', async () => {
    const summary = await load(SITE);
    expect(summary).toMatchObject({ types: 2, objects: 8 });
    // Every iteration of a part alice may read, then only the latest ones.
    expect(await rows(costCenter(false), USERS.alice)).toEqual([
      ['EXT-P-1', 'A.1', 'CC-100', 12.5],
      ['EXT-P-1', 'A.2', 'CC-100', 14],
    ]);
    expect(await rows(costCenter(true), USERS.alice)).toEqual([['EXT-P-1', 'A.2', 'CC-100', 14]]);
    expect(await rows(costCenter(true), USERS.carol)).toEqual([['EXT-P-3', 'A.1', 'CC-100', 99]]);
    // Through the added reference to the supplier, with the derived designer.
    expect(await rows(suppliers, USERS.bob)).toEqual([['EXT-P-1', 'Acme Castings', 'Alice Author']]);
    expect(await rows(suppliers, USERS.carol)).toEqual([['EXT-P-3', 'Hidden Works', 'Carol Librarian']]);
    // Documents: the demo's manual keeps language "en"; bob does not read the Secret Project.
    expect(await rows(germanDocuments, USERS.bob)).toEqual([['EXT-D-1', 'de']]);
    expect(await rows(germanDocuments, USERS.carol)).toEqual([['EXT-D-2', 'de']]);
    expect(
      await rows(germanDocuments.replace('<constant>de</constant>', '<constant>en</constant>'), USERS.bob),
    ).toEqual([['0000000003', 'en']]);
    // The extended class in the catalog: standard, with the added entries.
    const cls = await request(t.http)
      .get(`/reports/api/1.0/catalog/${PART}`)
      .auth(...USERS.bob);
    expect(cls.status).toBe(200);
    expect(cls.body).toMatchObject({ name: PART, userDeclared: false, storage: 'iteration' });
    expect(cls.body.properties).toEqual(
      expect.arrayContaining([
        {
          path: 'acmeCostCenter',
          type: 'string',
          source: 'json acmeCostCenter',
          about: 'the cost center paying for it',
        },
      ]),
    );
    expect(cls.body.references).toEqual(
      expect.arrayContaining([{ name: 'acmeSupplier', target: SUPPLIER, keptIn: 'json acmeSupplier' }]),
    );
  });

  it('finds parts by an added property with q, as the reader may', async () => {
    const q = async (user: readonly [string, string]) => {
      const res = await request(t.http)
        .get('/query/1.0/query')
        .query({ q: JSON.stringify({ type: PART, 'attributes.acmeCostCenter': 'CC-1*' }) })
        .auth(...user);
      expect(res.status).toBe(200);
      return (res.body.items as { number: string; version: string; iteration: number }[]).map(
        (i) => `${i.number} ${i.version}.${i.iteration}`,
      );
    };
    expect(await q(USERS.bob)).toEqual(['EXT-P-1 A.2']);
    expect(await q(USERS.carol)).toEqual(['EXT-P-3 A.1']);
  });

  it('takes the same extension again without changing anything, and a later one that adds more', async () => {
    const before = await snapshot(db);
    await load(SITE);
    expect(await snapshot(db)).toEqual({ ...before, audit_events: expect.any(String) });
    await load({
      format: 'pdm-dataset/1',
      types: { extensions: [{ class: PART, properties: { acmeWeightKg: { type: 'double', json: 'acmeWeightKg' } } }] },
      objects: [
        // A record gives the iteration's values anew: those of the first extension too.
        {
          class: PART,
          number: 'EXT-P-2',
          name: 'Shim',
          container: 'Drive Unit',
          properties: { acmeCostCenter: 'CC-200', acmeUnitCost: 0.25, acmeWeightKg: 0.01 },
        },
      ],
    });
    const stored = await db.query<{ kind: string; spec: { properties: Record<string, unknown> } }>(
      'SELECT kind, spec FROM catalog_types WHERE name = $1',
      [PART],
    );
    expect(stored.rows.map((r) => [r.kind, Object.keys(r.spec.properties).sort()])).toEqual([
      ['extension', ['acmeCostCenter', 'acmeUnitCost', 'acmeWeightKg']],
    ]);
    expect(
      await rows(
        qml(
          '<column alias="P" heading="Number">number</column><column alias="P">acmeCostCenter</column><column alias="P">acmeWeightKg</column>',
          `<table alias="P">${PART}</table>`,
          where(equal('P', 'acmeCostCenter', 'CC-200')) + byNumber,
        ),
        USERS.bob,
      ),
    ).toEqual([['EXT-P-2', 'CC-200', 0.01]]);
  });

  it('sees an extension stored with an earlier time than the latest change of catalog_types', async () => {
    // As an import that started before another one and committed after it stamps its row: the
    // latest change of the table stays the other one's.
    const template = qml('<column alias="P">acmeLate</column>', `<table alias="P">${PART}</table>`);
    await db.query(`UPDATE catalog_types SET modified_at = '2001-01-01T00:00:00Z' WHERE name = $1`, [PART]);
    expect((await post(template, USERS.alice)).status).toBe(400);
    const changed = await db.query(
      `UPDATE catalog_types SET spec = jsonb_set(spec, '{properties,acmeLate}', '{"type": "string", "json": "acmeLate"}'),
         modified_at = '2001-01-02T00:00:00Z' WHERE name = $1`,
      [PART],
    );
    expect(changed.rowCount).toBe(1);
    const res = await post(template, USERS.alice);
    expect({ status: res.status, message: res.body.message as unknown }).toEqual({ status: 200, message: undefined });
  });

  const clashing = {
    format: 'pdm-dataset/1',
    types: {
      extensions: [
        {
          class: PART,
          properties: {
            acmeUnitCost: { type: 'long', json: 'acmeUnitCost' },
            acmeNew: { type: 'string', json: 'acmeNew' },
          },
        },
      ],
    },
    objects: [{ class: PART, number: 'EXT-P-9', name: 'Never stored', container: 'Drive Unit' }],
  };
  const clash =
    `types: extensions[0] (${PART}).properties.acmeUnitCost: property acmeUnitCost of ${PART} exists ` +
    `already as json acmeUnitCost (double) (added by catalog_types: extensions[1] (${PART}).properties.acmeUnitCost); ` +
    'an extension cannot change it to json acmeUnitCost (long)';

  it('refuses a clashing extension naming the class and the property, and stores nothing', async () => {
    const before = await snapshot(db);
    await expect(load(clashing)).rejects.toThrow(new DatasetError(clash));
    expect(await snapshot(db)).toEqual(before);
    // The command says the same and exits 1.
    const file = join(mkdtempSync(join(tmpdir(), 'pdm-extensions-')), 'clash.json');
    writeFileSync(file, JSON.stringify(clashing));
    const err = (await run(process.execPath, [CLI, file], { env: { ...process.env, DATABASE_URL: scratch.url } }).catch(
      (e: unknown) => e,
    )) as { code: number; stderr: string };
    expect({ code: err.code, stderr: err.stderr.trim() }).toEqual({
      code: 1,
      stderr: `import failed, nothing was stored: ${clash}`,
    });
    expect(await snapshot(db)).toEqual(before);
    // Nothing of it was added: a template reading its new property is still refused.
    const res = await post(qml('<column alias="P">acmeNew</column>', `<table alias="P">${PART}</table>`), USERS.alice);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/: unknown property "acmeNew" of wt\.part\.WTPart/);
  });

  it('refuses an extension that clashes with one committed while it waited for the row', async () => {
    // Checked against the catalog before the entry was added, stored after it was: the merge
    // under the row's lock sees it.
    const racing = {
      format: 'pdm-dataset/1',
      types: { extensions: [{ class: PART, properties: { acmeRace: { type: 'string', json: 'acmeRace' } } }] },
    };
    const holder = await db.connect();
    let letGo = false;
    try {
      await holder.query('BEGIN');
      await holder.query(
        `UPDATE catalog_types SET spec = jsonb_set(spec, '{properties,acmeRace}', '{"type": "long", "json": "acmeRace"}')
         WHERE name = $1`,
        [PART],
      );
      const importing = load(racing, 'racing').then(
        () => null,
        (e: unknown) => e,
      );
      await lockWaiters(db, 1, 'the import waits for the extension row the test holds', { pending: [importing] });
      await holder.query('COMMIT');
      letGo = true;
      const e = await withinMs(importing, LOCK_WAIT_MS, 'the import is answered once the test lets go');
      expect(e).toEqual(
        new DatasetError(
          `types.extensions[0] (${PART}): property acmeRace of ${PART} was added by another import meanwhile, ` +
            'as json acmeRace (long); an extension cannot change it to json acmeRace (string)',
        ),
      );
    } finally {
      holder.release(!letGo);
    }
    const stored = await db.query<{ spec: unknown }>(
      `SELECT spec -> 'properties' -> 'acmeRace' AS spec FROM catalog_types WHERE name = $1`,
      [PART],
    );
    expect(stored.rows).toEqual([{ spec: { type: 'long', json: 'acmeRace' } }]);
  });
});
