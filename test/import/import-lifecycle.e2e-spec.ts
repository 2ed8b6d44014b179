import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { importFile } from '../../src/import/import-file.js';
import { parseLifecycle } from '../../src/config/lifecycle.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';

function writeDataset(data: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'pdm-import-')), 'dataset.json');
  writeFileSync(file, JSON.stringify(data));
  return file;
}

const goodPrefix = {
  format: 'pdm-dataset/1',
  users: [{ name: 'import-lifecycle-user', password: 'pw' }],
  containers: [
    {
      name: 'Import Lifecycle Container',
      class: 'wt.pdmlink.PDMLinkProduct',
      members: { 'import-lifecycle-user': 'author' },
    },
  ],
};

/** The import under a configured lifecycle, and the audit event it records. */
describe('dataset import: lifecycle states and its audit event', () => {
  let db: pg.Pool;
  beforeAll(() => {
    db = testPool();
  });
  afterAll(async () => {
    await db.query(`DELETE FROM masters WHERE number IN ('IMP-LC-1', 'IMP-LC-2')`);
    await db.query(`DELETE FROM containers WHERE name = 'Import Lifecycle Container'`);
    await db.query(`DELETE FROM users WHERE name = 'import-lifecycle-user'`);
    await db.end();
  });

  it('takes the states of the configured lifecycle and records one import event saying what it loaded', async () => {
    const data = {
      ...goodPrefix,
      objects: [
        {
          class: 'wt.doc.WTDocument',
          number: 'IMP-LC-1',
          name: 'draft',
          container: 'Import Lifecycle Container',
          state: 'DRAFT',
        },
        {
          class: 'wt.doc.WTDocument',
          number: 'IMP-LC-2',
          name: 'first state',
          container: 'Import Lifecycle Container',
        },
      ],
    };
    const file = writeDataset(data);
    await expect(importFile(file, testDatabaseUrl())).rejects.toThrow(
      'objects[0].state: unknown state "DRAFT" (expected INWORK, UNDERREVIEW, RELEASED, OBSOLETE)',
    );
    const lifecycle = parseLifecycle('{"DRAFT":["APPROVED"],"APPROVED":[]}');
    const summary = await importFile(file, testDatabaseUrl(), { lifecycle });
    expect(summary).toMatchObject({ users: 1, containers: 1, objects: 2 });
    const { rows } = await db.query(
      `SELECT i.state FROM iterations i JOIN masters m ON m.id = i.master_id
       WHERE m.number IN ('IMP-LC-1', 'IMP-LC-2') ORDER BY m.number`,
    );
    // A record without state starts in the lifecycle's first state.
    expect(rows.map((r) => r.state)).toEqual(['DRAFT', 'DRAFT']);
    const event = await db.query(
      `SELECT user_name, action, object_class, detail FROM audit_events WHERE action = 'import' ORDER BY id DESC LIMIT 1`,
    );
    expect(event.rows).toEqual([
      { user_name: 'admin', action: 'import', object_class: null, detail: { source: file, ...summary } },
    ]);
  });
});
