import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { BlobSweeper } from '../../src/files/stores/blob-sweeper.js';
import { VaultBlobStore } from '../../src/files/stores/vault-blob-store.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { importFile } from '../../src/import/import-file.js';
import { binaryParser } from '../files/files-fixtures.js';
import { useStoreApp } from '../files/file-stores.js';
import { USERS } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-database.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function writeDataset(data: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'pdm-import-')), 'dataset.json');
  writeFileSync(file, JSON.stringify(data));
  return file;
}

/** The dataset import writes file bytes to FILES_STORE as uploads do, not to PostgreSQL. */
describe.each(['filesystem', 's3'] as const)('dataset import into the %s store', (storeName) => {
  const PREFIX = `IMS${storeName.slice(0, 2).toUpperCase()}`;
  const CONTAINER = `${PREFIX} Import Store`;
  // Unique per run: the test database outlives no run, but other files may hold the same texts.
  const run = `${Date.now()}-${Math.random()}`;
  const shared = `bytes two files share ${run}`;
  const single = `bytes of one file ${run}`;
  const t = useStoreApp(storeName, {
    env: { FILES_SWEEP_INTERVAL_MS: '0' },
    cleanup: async (db) => {
      await db.query('DELETE FROM masters WHERE container_id IN (SELECT id FROM containers WHERE name = $1)', [
        CONTAINER,
      ]);
      await db.query('DELETE FROM containers WHERE name = $1', [CONTAINER]);
    },
  });
  let config: AppConfig;

  const doc = (number: string, files: { filename: string; text: string }[], more = {}) => ({
    class: 'wt.doc.WTDocument',
    number,
    name: `document ${number}`,
    container: CONTAINER,
    files: files.map((f) => ({ role: 'PRIMARY', ...f })),
    ...more,
  });
  const dataset = (objects: unknown[]) => ({
    format: 'pdm-dataset/1',
    containers: [{ name: CONTAINER, class: 'wt.pdmlink.PDMLinkProduct', members: { alice: 'author', bob: 'reader' } }],
    objects,
  });
  const good = () =>
    writeDataset(
      dataset([
        doc(`${PREFIX}-1`, [
          { filename: 'a.txt', text: shared },
          { filename: 'b.txt', text: single },
        ]),
        doc(`${PREFIX}-2`, [{ filename: 'c.txt', text: shared }]),
      ]),
    );
  const blobRows = async (hashes: string[]) =>
    (
      await t.db.query<{ sha256: string; store: string; size: string }>(
        'SELECT sha256, store, size::text FROM content_blobs WHERE sha256 = ANY($1) ORDER BY sha256',
        [hashes],
      )
    ).rows;
  const chunkCount = async (hashes: string[]) =>
    (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM blob_chunks WHERE sha256 = ANY($1)', [hashes]))
      .rows[0].n;
  const inStore = (text: string) => t.content.stores.get(storeName).has(sha(text), Buffer.byteLength(text));
  const download = (number: string, name: string) =>
    request(t.http)
      .get(`/files/${number}/${name}`)
      .auth(...USERS.bob)
      .buffer(true)
      .parse(binaryParser);

  beforeAll(() => {
    config = loadConfig({ ...process.env, DATABASE_URL: testDatabaseUrl(), ...t.store.env });
  });

  it('writes the bytes to the store, once per digest, and records the blobs there', async () => {
    const summary = await importFile(good(), testDatabaseUrl(), { files: config });
    expect(summary).toMatchObject({ containers: 1, objects: 2, files: 3 });
    const hashes = [sha(shared), sha(single)];
    expect(await blobRows(hashes)).toEqual(
      [
        { sha256: sha(shared), store: storeName, size: String(Buffer.byteLength(shared)) },
        { sha256: sha(single), store: storeName, size: String(Buffer.byteLength(single)) },
      ].sort((a, b) => a.sha256.localeCompare(b.sha256)),
    );
    expect(await chunkCount(hashes)).toBe(0);
    expect(await inStore(shared)).toBe(true);
    expect(await inStore(single)).toBe(true);

    for (const [number, name, text] of [
      [`${PREFIX}-1`, 'a.txt', shared],
      [`${PREFIX}-1`, 'b.txt', single],
      [`${PREFIX}-2`, 'c.txt', shared],
    ]) {
      const got = await download(number, name);
      expect(got.status).toBe(200);
      expect((got.body as Buffer).toString()).toBe(text);
    }
  });

  it('importing again changes no row and writes no bytes again', async () => {
    const hashes = [sha(shared), sha(single)];
    const before = await blobRows(hashes);
    const items = () =>
      t.db.query(
        `SELECT ci.file_name, ci.sha256, ci.modified_at FROM content_items ci
         JOIN iterations i ON i.id = ci.iteration_id JOIN masters m ON m.id = i.master_id
         WHERE m.number LIKE $1 ORDER BY ci.file_name`,
        [`${PREFIX}-%`],
      );
    const itemsBefore = (await items()).rows;
    const vault = storeName === 'filesystem' ? new VaultBlobStore(t.store.dir!) : null;
    const written = async () => (vault ? (await stat(vault.pathOf(sha(shared)))).mtimeMs : null);
    const writtenBefore = await written();

    const summary = await importFile(good(), testDatabaseUrl(), { files: config });
    expect(summary).toMatchObject({ objects: 2, files: 3 });
    expect(await blobRows(hashes)).toEqual(before);
    expect((await items()).rows).toEqual(itemsBefore);
    expect(await written()).toBe(writtenBefore);
    expect(await chunkCount(hashes)).toBe(0);
  });

  it('an import that fails stores no row; the bytes it wrote are swept like an upload that failed', async () => {
    const lost = `bytes of a failed import ${run}`;
    const file = writeDataset(
      dataset([
        doc(`${PREFIX}-3`, [{ filename: 'lost.txt', text: lost }]),
        doc(`${PREFIX}-4`, [], { createdBy: 'nobody-here' }),
      ]),
    );
    await expect(importFile(file, testDatabaseUrl(), { files: config })).rejects.toThrow(
      'objects[1].createdBy: unknown user "nobody-here"',
    );
    const masters = await t.db.query('SELECT 1 FROM masters WHERE number = $1', [`${PREFIX}-3`]);
    expect(masters.rowCount).toBe(0);
    const items = await t.db.query('SELECT 1 FROM content_items WHERE sha256 = $1', [sha(lost)]);
    expect(items.rowCount).toBe(0);
    // The bytes were made durable (and claimed) before the import's transaction wrote its rows.
    expect(await blobRows([sha(lost)])).toEqual([
      { sha256: sha(lost), store: storeName, size: String(Buffer.byteLength(lost)) },
    ]);
    expect(await inStore(lost)).toBe(true);

    // Within the sweep's grace period they stay; after it, rows and bytes go.
    await t.app.get(BlobSweeper).sweep();
    expect(await inStore(lost)).toBe(true);
    await t.db.query(`UPDATE content_blobs SET stored_at = now() - interval '2 hours' WHERE sha256 = $1`, [sha(lost)]);
    await t.app.get(BlobSweeper).sweep();
    expect(await blobRows([sha(lost)])).toEqual([]);
    expect(await inStore(lost)).toBe(false);
  });

  if (storeName === 's3') {
    it('with the store unreachable, the import fails and stores nothing', async () => {
      const unreachable = `bytes for a store that is down ${run}`;
      const file = writeDataset(dataset([doc(`${PREFIX}-5`, [{ filename: 'down.txt', text: unreachable }])]));
      await t.store.stopServer();
      await expect(importFile(file, testDatabaseUrl(), { files: config })).rejects.toThrow(
        /the file store \(s3\) is not available/,
      );
      expect((await t.db.query('SELECT 1 FROM masters WHERE number = $1', [`${PREFIX}-5`])).rowCount).toBe(0);
      // The claim of the bytes that could not be written is taken back.
      expect(await blobRows([sha(unreachable)])).toEqual([]);
    });
  }
});
