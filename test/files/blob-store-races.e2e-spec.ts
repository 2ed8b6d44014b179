import { createHash } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { migrateBlobs, MigrationBusyError } from '../../src/files/blob-migration.js';
import { deleteOrphan } from '../../src/files/blob-records.js';
import { ORPHAN_GRACE_MS } from '../../src/files/blob-sweeper.js';
import { FileContent } from '../../src/files/file-content.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { removeStoreBlobs, startTestStore, type TestStore } from './file-stores.js';
import { binaryParser, importFilesFixture, removeFilesFixture } from './files-fixtures.js';

const PREFIX = 'FRACE';
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The locks that keep the sweep, uploads and moves between stores from undoing each other. */
describe('file stores under concurrency', () => {
  let store: TestStore;
  let t: TestApp;
  let db: pg.Pool;
  let content: FileContent;

  beforeAll(async () => {
    db = testPool();
    await importFilesFixture(PREFIX);
    store = await startTestStore('filesystem');
    t = await createTestApp({ ...store.env, FILES_CACHE_SIZE: '0', FILES_DISK_CACHE_SIZE: '0' });
    content = t.app.get(FileContent);
  });
  afterAll(async () => {
    await t.close();
    await store.stop();
    await removeFilesFixture(db, PREFIX);
    await removeStoreBlobs(db);
    await db.end();
  });

  const upload = (name: string, bytes: Buffer) =>
    request(t.http)
      .post(`/files/${PREFIX}-1/${name}`)
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(bytes);

  async function waitUntil(condition: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if (await condition()) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`gave up waiting until ${what}`);
  }

  it('an upload of bytes the sweep is deleting waits for it, then writes them anew', async () => {
    const bytes = Buffer.from(`raced bytes ${Date.now()}`);
    const hash = sha(bytes);
    expect((await upload('first.txt', bytes)).status).toBe(201);
    const del = await request(t.http)
      .delete(`/files/${PREFIX}-1/first.txt`)
      .auth(...USERS.alice);
    expect(del.status).toBe(200);
    await db.query(`UPDATE content_blobs SET stored_at = now() - interval '2 hours' WHERE sha256 = $1`, [hash]);

    let second: Promise<request.Response> | undefined;
    const swept = await deleteOrphan(db, hash, 'filesystem', ORPHAN_GRACE_MS, async () => {
      // The sweep holds the blob's row; an upload of the same bytes starts now and must wait.
      second = upload('second.txt', bytes).then((r) => r);
      await waitUntil(async () => {
        const waiting = await db.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO content_blobs%'`,
        );
        return waiting.rowCount! > 0;
      }, "the upload's claim waits for the sweep's lock");
      await content.stores.get('filesystem').delete(hash);
    });
    expect(swept).toBe(true);
    const res = await second!;
    expect(res.status).toBe(201);
    expect((await db.query('SELECT store FROM content_blobs WHERE sha256 = $1', [hash])).rows).toEqual([
      { store: 'filesystem' },
    ]);
    expect(await content.stores.get('filesystem').has(hash, bytes.length)).toBe(true);
    const got = await request(t.http)
      .get(`/files/${PREFIX}-1/second.txt`)
      .auth(...USERS.bob)
      .buffer(true)
      .parse(binaryParser);
    expect(got.status).toBe(200);
    expect((got.body as Buffer).toString()).toBe(bytes.toString());
  });

  it('runs one move between stores at a time', async () => {
    const other = await db.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [0x70646d62]);
      await expect(migrateBlobs(db, content.stores, { to: 'filesystem', from: 'filesystem' })).rejects.toThrow(
        MigrationBusyError,
      );
    } finally {
      await other.query('SELECT pg_advisory_unlock($1)', [0x70646d62]);
      other.release();
    }
  });
});
