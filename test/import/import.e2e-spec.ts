import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type pg from 'pg';
import { DEMO_DATASET } from '../../src/import/demo-seed.js';
import { DatasetError } from '../../src/import/dataset.js';
import { importFile } from '../../src/import/import-file.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';

const run = promisify(execFile);
const TABLES = [
  'users',
  'containers',
  'memberships',
  'numbering_rules',
  'workspaces',
  'masters',
  'iterations',
  'content_roles',
  'content_blobs',
  'blob_chunks',
  'content_items',
  'usage_links',
  'report_templates',
  'objects',
  'links',
  'catalog_types',
];

/** A fingerprint of every row of every table, to prove an import changed nothing. */
async function snapshot(db: pg.Pool): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of TABLES) {
    const { rows } = await db.query<{ h: string; n: number }>(
      `SELECT count(*)::int AS n, coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS h FROM ${table} t`,
    );
    out[table] = `${rows[0].n}:${rows[0].h}`;
  }
  return out;
}

function writeDataset(data: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'pdm-import-')), 'dataset.json');
  writeFileSync(file, JSON.stringify(data));
  return file;
}

const goodPrefix = {
  format: 'pdm-dataset/1',
  users: [{ name: 'import-test-user', password: 'pw' }],
  containers: [
    { name: 'Import Test Container', class: 'wt.pdmlink.PDMLinkProduct', members: { 'import-test-user': 'author' } },
  ],
};

describe('dataset import', () => {
  let db: pg.Pool;
  beforeAll(() => {
    db = testPool();
  });
  afterAll(() => db.end());

  it('is idempotent: importing the demo dataset again changes nothing', async () => {
    const before = await snapshot(db);
    await importFile(DEMO_DATASET, testDatabaseUrl());
    expect(await snapshot(db)).toEqual(before);
  });

  it('stores nothing when a later record fails inside the transaction', async () => {
    const before = await snapshot(db);
    const file = writeDataset({
      ...goodPrefix,
      objects: [
        {
          class: 'wt.doc.WTDocument',
          number: 'IMP-1',
          name: 'ok',
          container: 'Import Test Container',
          createdBy: 'import-test-user',
        },
        {
          class: 'wt.doc.WTDocument',
          number: 'IMP-2',
          name: 'bad',
          container: 'Import Test Container',
          createdBy: 'nobody-here',
        },
      ],
    });
    const events = async () =>
      (await db.query(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'import'`)).rows[0].n;
    const eventsBefore = await events();
    await expect(importFile(file, testDatabaseUrl())).rejects.toThrow(
      'objects[1].createdBy: unknown user "nobody-here"',
    );
    expect(await snapshot(db)).toEqual(before);
    expect(await events()).toBe(eventsBefore);
  });

  it.each([
    [{ format: 'pdm-dataset/2' }, 'format: must be "pdm-dataset/1"'],
    [{ format: 'pdm-dataset/1', extra: 1 }, '(root): unknown field "extra"'],
    [
      {
        ...goodPrefix,
        objects: [
          {
            class: 'wt.doc.WTDocument',
            number: '1',
            name: 'n',
            container: 'Import Test Container',
            files: [{ role: 'PRIMRY', filename: 'a.txt', text: 'x' }],
          },
        ],
      },
      'objects[0].files[0]: unknown role "PRIMRY"',
    ],
    [
      {
        ...goodPrefix,
        objects: [
          {
            class: 'wt.doc.WTDocument',
            number: '1',
            name: 'n',
            container: 'Import Test Container',
            files: [{ role: 'PRIMARY', filename: '../a.txt', text: 'x' }],
          },
        ],
      },
      'objects[0].files[0].filename: must not contain / or \\',
    ],
    [
      { ...goodPrefix, objects: [{ class: 'wt.doc.WTDoc', number: '1', name: 'n', container: 'c' }] },
      'objects[0].class: wt.doc.WTDoc: unknown class; objects are versioned classes (wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart …) or plain ones (views, workflow processes …)',
    ],
    [
      {
        ...goodPrefix,
        objects: [
          {
            class: 'wt.part.WTPart',
            number: '1',
            name: 'n',
            container: 'Import Test Container',
            uses: [{ number: 'missing-part' }],
          },
        ],
      },
      'objects[0].uses[0]: no wt.part.WTPart with number "missing-part"',
    ],
    [
      { ...goodPrefix, objects: [{ class: 'wt.doc.WTDocument', number: '1', name: 'n', container: 'Nowhere' }] },
      'objects[0].container: unknown container "Nowhere"',
    ],
    [
      {
        ...goodPrefix,
        containers: [
          {
            name: 'C',
            class: 'wt.pdmlink.PDMLinkProduct',
            numbering: [{ class: 'wt.doc.WTDocument', width: 3, next: 1000 }],
          },
        ],
      },
      'containers[0].numbering[0].next: 1000 does not fit in 3 digits',
    ],
    [
      {
        ...goodPrefix,
        reports: [{ name: 'Bad', container: 'Import Test Container', qml: '<qml><statement>a & b</statement></qml>' }],
      },
      expect.stringMatching(/^reports\[0\]\.qml: .*line 1, column \d+/),
    ],
    [
      {
        ...goodPrefix,
        reports: [
          {
            name: 'Unknown class',
            container: 'Import Test Container',
            qml:
              '<qml><statement><query><select><column alias="d" propertyName="name"/></select>' +
              '<from><table alias="d">wt.doc.WTNothing</table></from></query></statement></qml>',
          },
        ],
      },
      expect.stringMatching(/^reports\[0\]\.qml: .*wt\.doc\.WTNothing/),
    ],
    [
      {
        ...goodPrefix,
        types: {
          classes: [{ name: 'com.test.Thing', parent: 'wt.fc.Nothing' }],
          softTypes: [{ name: 'com.test.Soft', parent: 'wt.org.WTUser' }],
        },
      },
      'types: classes[0] (com.test.Thing): unknown parent class wt.fc.Nothing; types: softTypes[0] (com.test.Soft): class wt.org.WTUser keeps no soft types (storage user)',
    ],
    [
      { ...goodPrefix, objects: [{ class: 'wt.workflow.work.WorkItem', name: 'x', properties: { colour: 'red' } }] },
      'objects[0].properties.colour: is not a property of wt.workflow.work.WorkItem kept in JSON (its JSON properties: role, completedBy, required, deadline, ownership.owner.key.id, priority, reassigned, origOwner.key.id, description)',
    ],
    [
      { ...goodPrefix, objects: [{ class: 'wt.workflow.work.WorkItem', name: 'x', properties: { required: 'yes' } }] },
      'objects[0].properties.required: must be true or false',
    ],
    [
      {
        ...goodPrefix,
        objects: [{ class: 'wt.workflow.work.WorkItem', name: 'x', references: { source: 'NO-SUCH' } }],
      },
      'objects[0].references.source: no wt.workflow.work.WfAssignedActivity with number or name "NO-SUCH"',
    ],
    [
      { ...goodPrefix, links: [{ class: 'wt.part.WTPartUsageLink', a: 'x', b: 'y' }] },
      'links[0].class: wt.part.WTPartUsageLink: not a link class stored in links (part structure comes from "uses", files from "files")',
    ],
    [
      { ...goodPrefix, objects: [{ class: 'wt.vc.views.View', name: 'V', softType: 'com.undeclared.Type' }] },
      'objects[0].softType: soft type com.undeclared.Type is not declared (declare it in "types".softTypes)',
    ],
  ])('rejects a bad record with a message naming it (%#)', async (data, message) => {
    const before = await snapshot(db);
    const err = await importFile(writeDataset(data), testDatabaseUrl()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetError);
    expect((err as Error).message).toEqual(message);
    expect(await snapshot(db)).toEqual(before);
  });

  it('imports a valid file: iterations, latest flag, files, links, and never rewinds a counter', async () => {
    const data = {
      ...goodPrefix,
      roles: ['EXTRA_ROLE'],
      containers: [
        { ...goodPrefix.containers[0], numbering: [{ class: 'wt.part.WTPart', prefix: 'IT-', width: 6, next: 50 }] },
      ],
      objects: [
        {
          class: 'wt.part.WTPart',
          number: 'IT-000001',
          name: 'Top',
          container: 'Import Test Container',
          version: 'A',
          iteration: 2,
          createdBy: 'import-test-user',
          uses: [{ number: 'IT-000002', quantity: 3, lineNumber: 10 }],
          files: [{ role: 'EXTRA_ROLE', filename: 'ünï.bin', base64: Buffer.from([0, 1, 255]).toString('base64') }],
        },
        {
          class: 'wt.part.WTPart',
          number: 'IT-000001',
          name: 'Top',
          container: 'Import Test Container',
          version: 'A',
          iteration: 1,
          createdBy: 'import-test-user',
        },
        {
          class: 'wt.part.WTPart',
          number: 'IT-000002',
          name: 'Child',
          container: 'Import Test Container',
          attributes: { material: 'S235', weight: 1.5 },
        },
      ],
    };
    const summary = await importFile(writeDataset(data), testDatabaseUrl());
    expect(summary).toMatchObject({ users: 1, containers: 1, objects: 3, files: 1, links: 1 });

    const its = await db.query(
      `SELECT m.number, i.iteration, i.latest, i.attributes FROM iterations i JOIN masters m ON m.id = i.master_id
       WHERE m.number LIKE 'IT-%' ORDER BY m.number, i.iteration`,
    );
    expect(its.rows).toEqual([
      { number: 'IT-000001', iteration: 1, latest: false, attributes: {} },
      { number: 'IT-000001', iteration: 2, latest: true, attributes: {} },
      { number: 'IT-000002', iteration: 1, latest: true, attributes: { material: 'S235', weight: 1.5 } },
    ]);
    const file = await db.query(
      `SELECT ci.file_name, ci.role, ci.size::int, ci.mime_type, encode(bc.data, 'hex') AS hex
       FROM content_items ci JOIN blob_chunks bc ON bc.sha256 = ci.sha256 WHERE ci.file_name = 'ünï.bin'`,
    );
    expect(file.rows).toEqual([
      { file_name: 'ünï.bin', role: 'EXTRA_ROLE', size: 3, mime_type: 'application/octet-stream', hex: '0001ff' },
    ]);
    const link = await db.query(
      `SELECT l.class, l.quantity, l.unit, l.line_number::int FROM usage_links l JOIN masters c ON c.id = l.child_id
       WHERE c.number = 'IT-000002'`,
    );
    expect(link.rows).toEqual([{ class: 'wt.part.WTPartUsageLink', quantity: 3, unit: 'ea', line_number: 10 }]);

    await db.query(
      `UPDATE numbering_rules SET next = 77 WHERE container_id = (SELECT id FROM containers WHERE name = 'Import Test Container')`,
    );
    const again = await snapshot(db);
    await importFile(writeDataset(data), testDatabaseUrl());
    expect(await snapshot(db)).toEqual(again);
    const rule = await db.query(
      `SELECT next::int FROM numbering_rules WHERE container_id = (SELECT id FROM containers WHERE name = 'Import Test Container')`,
    );
    expect(rule.rows).toEqual([{ next: 77 }]);
  });

  describe('npm run import (the command)', () => {
    const cli = join(process.cwd(), 'dist/src/import/import.cli.js');
    const env = () => ({ ...process.env, DATABASE_URL: testDatabaseUrl() });

    it('imports a file and exits 0', async () => {
      const { stdout } = await run(process.execPath, [cli, DEMO_DATASET], { env: env() });
      expect(stdout).toMatch(/^imported .*demo-dataset\.json: \d+ roles, 4 users, 3 containers/);
    });

    it('exits non-zero naming the bad record, and stores nothing', async () => {
      const before = await snapshot(db);
      const demo = JSON.parse(readFileSync(DEMO_DATASET, 'utf8')) as { objects: { files?: { role: string }[] }[] };
      demo.objects[12].files![0].role = 'PRIMRY';
      const err = (await run(process.execPath, [cli, writeDataset(demo)], { env: env() }).catch((e: unknown) => e)) as {
        code: number;
        stderr: string;
      };
      expect(err.code).toBe(1);
      expect(err.stderr).toContain('import failed, nothing was stored: objects[12].files[0]: unknown role "PRIMRY"');
      expect(await snapshot(db)).toEqual(before);
    });

    it('explains its usage', async () => {
      const err = (await run(process.execPath, [cli], { env: env() }).catch((e: unknown) => e)) as {
        code: number;
        stderr: string;
      };
      expect(err.code).toBe(2);
      expect(err.stderr).toBe(
        'usage: npm run import -- [--as <user>] <dataset.json>   (- reads standard input; --as: the importing user, ' +
          'default admin)\n',
      );
    });
  });

  it('imports types, objects of plain classes and links, resolving references, and again without duplicates', async () => {
    const data = {
      ...goodPrefix,
      types: {
        classes: [
          {
            name: 'com.importtest.Gauge',
            parent: 'wt.fc.Item',
            properties: { reading: { type: 'double', json: 'reading' } },
            references: { calibratedBy: { target: 'wt.org.WTUser', json: 'calibratedBy' } },
          },
          {
            name: 'com.importtest.GaugeLink',
            parent: 'wt.fc.ObjectToObjectLink',
            roles: { a: 'com.importtest.Gauge', b: 'com.importtest.Gauge' },
          },
        ],
        softTypes: [
          { name: 'com.importtest.Digital', parent: 'com.importtest.Gauge', attributes: { bits: { type: 'long' } } },
        ],
      },
      objects: [
        {
          class: 'com.importtest.Gauge',
          number: 'G-1',
          name: 'first',
          container: 'Import Test Container',
          softType: 'com.importtest.Digital',
          properties: { reading: 1.5 },
          attributes: { bits: 12 },
          references: { calibratedBy: 'import-test-user' },
        },
        { class: 'com.importtest.Gauge', number: 'G-2', name: 'second' },
      ],
      links: [{ class: 'com.importtest.GaugeLink', a: 'G-1', b: 'G-2', properties: {} }],
    };
    const file = writeDataset(data);
    const first = await importFile(file, testDatabaseUrl());
    expect(first).toMatchObject({ types: 3, objects: 2, links: 1 });
    const { rows } = await db.query(
      `SELECT o.number, o.soft_type, o.props, c.name AS container FROM objects o LEFT JOIN containers c ON c.id = o.container_id
       WHERE o.class = 'com.importtest.Gauge' ORDER BY o.number`,
    );
    const user = await db.query(`SELECT id FROM users WHERE name = 'import-test-user'`);
    expect(rows).toEqual([
      {
        number: 'G-1',
        soft_type: 'com.importtest.Digital',
        props: { reading: 1.5, bits: 12, calibratedBy: user.rows[0].id },
        container: 'Import Test Container',
      },
      { number: 'G-2', soft_type: null, props: {}, container: null },
    ]);
    const links = await db.query(`SELECT count(*)::int AS n FROM links WHERE class = 'com.importtest.GaugeLink'`);
    expect(links.rows[0].n).toBe(1);
    const types = await db.query(
      `SELECT name, kind FROM catalog_types WHERE name LIKE 'com.importtest.%' ORDER BY name`,
    );
    expect(types.rows).toEqual([
      { name: 'com.importtest.Digital', kind: 'softType' },
      { name: 'com.importtest.Gauge', kind: 'class' },
      { name: 'com.importtest.GaugeLink', kind: 'class' },
    ]);
    // Again: the declared types replace themselves, records are matched, nothing is added.
    const before = await snapshot(db);
    await importFile(file, testDatabaseUrl());
    expect(await snapshot(db)).toEqual(before);
  });
});
