import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { applyMigrations } from '../../src/prisma/migrate.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/import/import.cli.js');
const PFX = `IMR${process.pid}`;
const PKG = `com.imr${process.pid}`;
const MEASUREMENT = `${PKG}.Measurement`;
const ref = (cls: string, number: string) => ({ ref: { class: cls, number } });

function writeDataset(data: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'pdm-import-')), 'dataset.json');
  writeFileSync(file, JSON.stringify(data));
  return file;
}

/** Runs the import command on a dataset: its exit code, standard output and last line of standard error. */
async function importCommand(data: unknown, args: string[] = [], url = testDatabaseUrl()) {
  const result = await run(process.execPath, [CLI, ...args, writeDataset(data)], {
    env: { ...process.env, DATABASE_URL: url },
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
  return { code: result.code, stdout: result.stdout, error: result.stderr.trim().split('\n').pop() };
}

/** A plain class of this file's own that keeps a part's id in a number no reference of the catalog names. */
const types = {
  classes: [
    {
      name: MEASUREMENT,
      parent: 'wt.fc.Item',
      properties: { partId: { type: 'long', json: 'part' }, value: { type: 'double', json: 'value' } },
    },
  ],
};

const part = (number: string, container: string, createdBy: string, more: object = {}) => ({
  class: 'wt.part.WTPart',
  number: `${PFX}-${number}`,
  name: `part ${number}`,
  container,
  createdBy,
  ...more,
});

/**
 * Parts whose masters get values (properties of the part master, a part property kept on the
 * master, custom attributes of the master; a later iteration's value wins), a document master's
 * attribute, part iterations naming their view by a number given as a reference, and
 * measurements (one in a container only carol reads) naming parts that come later in the file.
 */
const dataset = {
  format: 'pdm-dataset/1',
  types,
  objects: [
    {
      class: MEASUREMENT,
      number: `${PFX}-M1`,
      container: 'Drive Unit',
      properties: { partId: ref('wt.part.WTPart', `${PFX}-P1`), value: 1.5 },
    },
    {
      class: MEASUREMENT,
      number: `${PFX}-M2`,
      container: 'Secret Project',
      properties: { partId: ref('wt.part.WTPart', `${PFX}-P2`), value: 2.5 },
    },
    part('P1', 'Drive Unit', 'alice', {
      properties: { defaultUnit: 'kg', 'view.key.id': ref('wt.vc.views.View', 'Design') },
      master: { properties: { endItem: true }, attributes: { supplierCode: 'S-17' } },
    }),
    part('P1', 'Drive Unit', 'alice', {
      iteration: 2,
      properties: { 'view.key.id': ref('wt.vc.views.View', 'Manufacturing') },
      master: { attributes: { supplierCode: 'S-18' } },
    }),
    part('P2', 'Secret Project', 'carol', { master: { properties: { endItem: false, defaultUnit: 'm' } } }),
    {
      class: 'wt.doc.WTDocument',
      number: `${PFX}-D1`,
      name: 'inspection plan',
      container: 'Drive Unit',
      createdBy: 'alice',
      master: { attributes: { department: 'QA' } },
    },
  ],
};

const qml = (select: string, from: string, where: string, rest = '') =>
  `<qml><statement><query><select>${select}</select><from>${from}</from><where>${where}</where>${rest}</query></statement></qml>`;
const col = (alias: string, path: string, heading = path) =>
  `<column alias="${alias}" heading="${heading.replace(/[^\w]/g, '')}">${path.replace(/>/g, '&gt;')}</column>`;
const like = (alias: string, path: string, value: string) =>
  `<condition><operand>${col(alias, path)}</operand><operator type="like"/><operand><constant>${value}</constant></operand></condition>`;
const latest = (alias: string) =>
  `<condition><operand>${col(alias, 'iterationInfo.latest')}</operand><operator type="equal"/><operand><constant>1</constant></operand></condition>`;
const and = (...c: string[]) => `<compositeCondition type="and">${c.join('')}</compositeCondition>`;
const orderBy = (...headings: string[]) =>
  `<orderBy>${headings.map((h) => `<orderByItem><columnTarget heading="${h}"/></orderByItem>`).join('')}</orderBy>`;

/** The master values, the numbers given as references and the default creator, read back by report templates. */
describe('dataset import: master values and numbers given as references, read by report templates', () => {
  let db: pg.Pool;
  // Every use checks catalog_types: the class the import declares is seen by the next request.
  const t = useTestApp({ CATALOG_CHECK_INTERVAL_MS: '0' });
  beforeAll(async () => {
    db = testPool();
    const imported = await importCommand(dataset);
    expect(imported).toMatchObject({ code: 0, stdout: expect.stringMatching(/ 6 objects, /) });
  });
  afterAll(async () => {
    await db.query('DELETE FROM objects WHERE number LIKE $1', [`${PFX}-%`]);
    await db.query('DELETE FROM masters WHERE number LIKE $1', [`${PFX}-%`]);
    await db.query('DELETE FROM catalog_types WHERE name LIKE $1', [`${PKG}.%`]);
    await db.query('DELETE FROM users WHERE name LIKE $1', [`imr${process.pid}-%`]);
    await db.end();
  });

  const report = async (user: readonly [string, string], doc: string) => {
    const res = await request(t.http)
      .post('/reports?format=json')
      .auth(...user)
      .set('Content-Type', 'text/xml')
      .send(doc);
    expect([res.status, res.body.message]).toEqual([200, undefined]);
    return res.body.items as unknown[][];
  };

  it('stores master values in the master, later iterations winning, and numbers given as references as ids', async () => {
    const { rows: masters } = await db.query(
      `SELECT number, attributes FROM masters WHERE number LIKE $1 ORDER BY number`,
      [`${PFX}-%`],
    );
    expect(masters).toEqual([
      { number: `${PFX}-D1`, attributes: { department: 'QA' } },
      { number: `${PFX}-P1`, attributes: { defaultUnit: 'kg', endItem: true, supplierCode: 'S-18' } },
      { number: `${PFX}-P2`, attributes: { defaultUnit: 'm', endItem: false } },
    ]);
    const latestIds = await db.query(
      `SELECT m.number, i.id FROM masters m JOIN iterations i ON i.master_id = m.id AND i.latest
       WHERE m.number LIKE $1 ORDER BY m.number`,
      [`${PFX}-P%`],
    );
    const [p1, p2] = latestIds.rows.map((r: { id: number }) => r.id);
    const { rows: measurements } = await db.query(
      `SELECT o.number, (o.props->>'part')::int AS part, o.props->'value' AS value, u.name AS "createdBy"
       FROM objects o JOIN users u ON u.id = o.created_by WHERE o.number LIKE $1 ORDER BY o.number`,
      [`${PFX}-M%`],
    );
    // Plain objects without createdBy are created by the importing user: admin when no one is named.
    expect(measurements).toEqual([
      { number: `${PFX}-M1`, part: p1, value: 1.5, createdBy: 'admin' },
      { number: `${PFX}-M2`, part: p2, value: 2.5, createdBy: 'admin' },
    ]);
    const { rows: views } = await db.query(
      `SELECT i.iteration, v.name FROM iterations i JOIN masters m ON m.id = i.master_id
       JOIN objects v ON v.id = (i.attributes->>'view')::int WHERE m.number = $1 ORDER BY i.iteration`,
      [`${PFX}-P1`],
    );
    expect(views).toEqual([
      { iteration: 1, name: 'Design' },
      { iteration: 2, name: 'Manufacturing' },
    ]);
  });

  it('reads part master values through the part and the part master, each reader seeing only their rows', async () => {
    const parts = qml(
      col('P', 'master>number', 'Number') +
        col('P', 'iterationInfo.identifier.iterationId', 'Iteration') +
        col('P', 'defaultUnit', 'Unit') +
        col('P', 'WCTYPE|wt.part.WTPart~MBA|supplierCode', 'Supplier'),
      '<table alias="P">wt.part.WTPart</table>',
      and(like('P', 'master>number', `${PFX}-*`), latest('P')),
      orderBy('Number'),
    );
    expect(await report(USERS.alice, parts)).toEqual([[`${PFX}-P1`, 2, 'kg', 'S-18']]);
    expect(await report(USERS.bob, parts)).toEqual([[`${PFX}-P1`, 2, 'kg', 'S-18']]);
    expect(await report(USERS.carol, parts)).toEqual([[`${PFX}-P2`, 1, 'm', null]]);

    const masters = qml(
      col('M', 'number', 'Number') + col('M', 'name', 'Name') + col('M', 'defaultUnit', 'Unit') + col('M', 'endItem'),
      '<table alias="M">wt.part.WTPartMaster</table>',
      like('M', 'number', `${PFX}-*`),
      orderBy('Number'),
    );
    expect(await report(USERS.alice, masters)).toEqual([[`${PFX}-P1`, 'part P1', 'kg', true]]);
    expect(await report(USERS.admin, masters.replace('<qml>', '<qml bypassAccessControl="true">'))).toEqual([
      [`${PFX}-P1`, 'part P1', 'kg', true],
      [`${PFX}-P2`, 'part P2', 'm', false],
    ]);

    const documents = qml(
      col('D', 'master>number', 'Number') + col('D', 'WCTYPE|wt.doc.WTDocument~MBA|department', 'Department'),
      '<table alias="D">wt.doc.WTDocument</table>',
      like('D', 'master>number', `${PFX}-*`),
    );
    expect(await report(USERS.bob, documents)).toEqual([[`${PFX}-D1`, 'QA']]);
  });

  it('joins through numbers given as references: a reference of the catalog and a plain id', async () => {
    const views = qml(
      col('P', 'master>number', 'Number') +
        col('P', 'iterationInfo.identifier.iterationId', 'Iteration') +
        col('V', 'name', 'View'),
      '<table alias="P">wt.part.WTPart</table><table alias="V">wt.vc.views.View</table>',
      like('P', 'master>number', `${PFX}-*`),
      '<referenceJoin><join name="view"><aliasTarget alias="P"/><aliasTarget alias="V"/></join></referenceJoin>' +
        orderBy('Number', 'Iteration'),
    );
    expect(await report(USERS.alice, views)).toEqual([
      [`${PFX}-P1`, 1, 'Design'],
      [`${PFX}-P1`, 2, 'Manufacturing'],
    ]);

    const measured = qml(
      col('M', 'number', 'Measurement') +
        col('P', 'master>number', 'Part') +
        col('P', 'iterationInfo.identifier.iterationId', 'Iteration') +
        col('M', 'value', 'Value'),
      `<table alias="M">${MEASUREMENT}</table><table alias="P">wt.part.WTPart</table>`,
      and(
        like('M', 'number', `${PFX}-*`),
        `<condition><operand>${col('M', 'partId')}</operand><operator type="equal"/><operand>${col('P', 'thePersistInfo.theObjectIdentifier.id')}</operand></condition>`,
      ),
      orderBy('Measurement'),
    );
    expect(await report(USERS.alice, measured)).toEqual([[`${PFX}-M1`, `${PFX}-P1`, 2, 1.5]]);
    expect(await report(USERS.carol, measured)).toEqual([[`${PFX}-M2`, `${PFX}-P2`, 1, 2.5]]);
  });

  it('changes nothing when the same dataset is imported again', async () => {
    const state = () =>
      db.query(
        `SELECT 'master ' || number || ' ' || attributes::text AS row FROM masters WHERE number LIKE $1
         UNION ALL SELECT 'iteration ' || m.number || ' ' || i.version || '.' || i.iteration || ' ' || i.attributes::text
           || ' ' || i.modified_at::text FROM iterations i JOIN masters m ON m.id = i.master_id WHERE m.number LIKE $1
         UNION ALL SELECT 'object ' || number || ' ' || props::text || ' ' || modified_at::text FROM objects WHERE number LIKE $1
         ORDER BY 1`,
        [`${PFX}-%`],
      );
    const before = (await state()).rows;
    expect((await importCommand(dataset)).code).toBe(0);
    expect((await state()).rows).toEqual(before);
  });

  describe('refuses a dataset naming a record that is not there, storing nothing', () => {
    /** What a refused dataset could have stored: its parts and measurements, its class, import events. */
    const written = async () =>
      (
        await db.query(
          `SELECT (SELECT count(*) FROM masters WHERE number LIKE $1)::int AS masters,
                  (SELECT count(*) FROM objects WHERE number LIKE $1)::int AS objects,
                  (SELECT count(*) FROM catalog_types WHERE name = $2)::int AS types,
                  (SELECT count(*) FROM audit_events WHERE action = 'import')::int AS imports`,
          [`${PFX}-E%`, `${PKG}.Extra`],
        )
      ).rows[0];
    const refused = (objects: object[]) => ({
      format: 'pdm-dataset/1',
      types: { classes: [...types.classes, { name: `${PKG}.Extra`, parent: 'wt.fc.Item' }] },
      objects: [part('E1', 'Drive Unit', 'alice'), ...objects],
    });

    it.each<[string, object, string]>([
      [
        'an unknown record',
        { class: MEASUREMENT, number: `${PFX}-E2`, properties: { partId: ref('wt.part.WTPart', `${PFX}-NOPE`) } },
        `objects[1].properties.partId: no wt.part.WTPart with number or name "${PFX}-NOPE"`,
      ],
      [
        'a record of another class',
        { class: MEASUREMENT, number: `${PFX}-E2`, properties: { partId: ref('wt.doc.WTDocument', `${PFX}-P1`) } },
        `objects[1].properties.partId: no wt.doc.WTDocument with number or name "${PFX}-P1"; "${PFX}-P1" names a ` +
          'wt.part.WTPart',
      ],
      [
        'a record of a class the value cannot hold',
        part('E2', 'Drive Unit', 'alice', { properties: { 'view.key.id': ref('wt.part.WTPart', `${PFX}-P1`) } }),
        'objects[1].properties.view.key.id.ref.class: wt.part.WTPart is not a wt.vc.views.View: wt.part.WTPart keeps ' +
          'its reference view in this value',
      ],
      [
        'an unknown record, for its master',
        part('E2', 'Drive Unit', 'alice', { master: { attributes: { approverId: ref('wt.org.WTUser', `${PFX}-x`) } } }),
        `objects[1].master.attributes.approverId: no wt.org.WTUser with number or name "${PFX}-x"`,
      ],
    ])('%s', async (_, object, message) => {
      const before = await written();
      expect(await importCommand(refused([object]))).toEqual({
        code: 1,
        stdout: '',
        error: `import failed, nothing was stored: ${message}`,
      });
      expect(await written()).toEqual(before);
    });
  });

  it('names the record at fault by its place in the file, after records of plain classes too', async () => {
    const dataset = {
      format: 'pdm-dataset/1',
      types,
      objects: [
        { class: MEASUREMENT, number: `${PFX}-E3`, container: 'Drive Unit' },
        part('E4', 'Drive Unit', 'alice', { uses: [{ number: `${PFX}-NOPE` }] }),
      ],
    };
    expect(await importCommand(dataset)).toEqual({
      code: 1,
      stdout: '',
      error: `import failed, nothing was stored: objects[1].uses[0]: no wt.part.WTPart with number "${PFX}-NOPE"`,
    });
  });

  describe('the importing user (npm run import -- --as <user>)', () => {
    const NEWBIE = `imr${process.pid}-newbie`;
    const measurement = (n: string) => ({ class: MEASUREMENT, number: `${PFX}-${n}`, container: 'Drive Unit' });
    const creators = async (n: string) =>
      (
        await db.query(
          `SELECT u.name FROM objects o JOIN users u ON u.id = o.created_by WHERE o.number = $1
           UNION ALL SELECT u.name FROM masters m JOIN iterations i ON i.master_id = m.id
             JOIN users u ON u.id = i.created_by WHERE m.number = $1`,
          [`${PFX}-${n}`],
        )
      ).rows.map((r: { name: string }) => r.name);

    it('creates records without createdBy as the user --as names, through npm run import', async () => {
      const file = writeDataset({
        format: 'pdm-dataset/1',
        types,
        objects: [measurement('C1'), { ...part('C2', 'Drive Unit', 'x'), createdBy: undefined }],
      });
      const { stdout } = await run('npm', ['run', '--silent', 'import', '--', '--as', 'bob', file], {
        env: { ...process.env, DATABASE_URL: testDatabaseUrl() },
      });
      expect(stdout).toMatch(/^imported .*: .* 2 objects, /);
      expect([await creators('C1'), await creators('C2')]).toEqual([['bob'], ['bob']]);
      const { rows } = await db.query(
        `SELECT user_name FROM audit_events WHERE action = 'import' AND detail->>'source' = $1`,
        [file],
      );
      expect(rows).toEqual([{ user_name: 'bob' }]);
    });

    it('takes a user the dataset adds', async () => {
      const imported = await importCommand(
        {
          format: 'pdm-dataset/1',
          types,
          users: [{ name: NEWBIE, password: 'newbie-pw' }],
          objects: [measurement('C3')],
        },
        ['--as', NEWBIE],
      );
      expect(imported.code).toBe(0);
      expect(await creators('C3')).toEqual([NEWBIE]);
    });

    it('refuses a user that is not there, storing nothing', async () => {
      const imported = await importCommand({ format: 'pdm-dataset/1', types, objects: [measurement('E9')] }, [
        '--as',
        `${NEWBIE}-nobody`,
      ]);
      expect(imported).toEqual({
        code: 1,
        stdout: '',
        error:
          `import failed, nothing was stored: the importing user "${NEWBIE}-nobody" is neither a stored user nor ` +
          "one of the dataset's users",
      });
      expect(await creators('E9')).toEqual([]);
    });

    it('answers a command line it cannot read with its usage', async () => {
      const imported = await importCommand({ format: 'pdm-dataset/1' }, ['--as']);
      expect(imported).toMatchObject({
        code: 2,
        error: expect.stringMatching(/^usage: npm run import -- \[--as <user>\]/),
      });
    });
  });
});

describe('the import command on a database without the importing user', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await scratchDatabase({ demo: false });
    await applyMigrations(db.url);
  });
  afterAll(() => db?.drop());

  const views = { format: 'pdm-dataset/1', objects: [{ class: 'wt.vc.views.View', name: 'Design' }] };
  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };

  it('refuses records without createdBy when no user is named and there is no admin, storing nothing', async () => {
    expect(await importCommand(views, [], db.url)).toEqual({
      code: 1,
      stdout: '',
      error:
        'import failed, nothing was stored: objects[0].createdBy: not given, and the importing user "admin" is ' +
        "neither a stored user nor one of the dataset's users (give createdBy, or import as a user: npm run import " +
        '-- --as <user> <file>)',
    });
    expect(
      await query(
        'SELECT (SELECT count(*) FROM objects)::int AS objects, (SELECT count(*) FROM audit_events)::int AS events',
      ),
    ).toEqual([{ objects: 0, events: 0 }]);
  });

  it("creates them as the user --as names, one of the dataset's own", async () => {
    const imported = await importCommand(
      { ...views, users: [{ name: 'erin', password: 'erin-pw' }] },
      ['--as', 'erin'],
      db.url,
    );
    expect(imported.code).toBe(0);
    expect(
      await query(
        'SELECT o.name, u.name AS "createdBy", (SELECT user_name FROM audit_events) AS "importedBy" FROM objects o JOIN users u ON u.id = o.created_by',
      ),
    ).toEqual([{ name: 'Design', createdBy: 'erin', importedBy: 'erin' }]);
  });
});
