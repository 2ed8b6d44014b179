import { createHash } from 'node:crypto';
import request from 'supertest';
import { migrateBlobs, MigrationBusyError } from '../../src/files/stores/blob-migration.js';
import { ORPHAN_GRACE_MS } from '../../src/files/stores/blob-sweeper.js';
import { BlobsRepository } from '../../src/files/stores/blobs.repository.js';
import { USERS } from '../helpers/test-app.js';
import { useStoreApp } from './file-stores.js';
import { binaryParser } from './files-fixtures.js';

const PREFIX = 'FRACE';
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The locks that keep the sweep, uploads and moves between stores from undoing each other. */
describe('file stores under concurrency', () => {
  const t = useStoreApp('filesystem', { fixture: PREFIX });

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
    await t.db.query(`UPDATE content_blobs SET stored_at = now() - interval '2 hours' WHERE sha256 = $1`, [hash]);

    let second: Promise<request.Response> | undefined;
    const swept = await new BlobsRepository(t.db).deleteOrphan(hash, 'filesystem', ORPHAN_GRACE_MS, async () => {
      // The sweep holds the blob's row; an upload of the same bytes starts now and must wait.
      second = upload('second.txt', bytes).then((r) => r);
      await waitUntil(async () => {
        const waiting = await t.db.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO content_blobs%'`,
        );
        return waiting.rowCount! > 0;
      }, "the upload's claim waits for the sweep's lock");
      await t.content.stores.get('filesystem').delete(hash);
    });
    expect(swept).toBe(true);
    const res = await second!;
    expect(res.status).toBe(201);
    expect((await t.db.query('SELECT store FROM content_blobs WHERE sha256 = $1', [hash])).rows).toEqual([
      { store: 'filesystem' },
    ]);
    expect(await t.content.stores.get('filesystem').has(hash, bytes.length)).toBe(true);
    const got = await request(t.http)
      .get(`/files/${PREFIX}-1/second.txt`)
      .auth(...USERS.bob)
      .buffer(true)
      .parse(binaryParser);
    expect(got.status).toBe(200);
    expect((got.body as Buffer).toString()).toBe(bytes.toString());
  });

  it('runs one move between stores at a time', async () => {
    const other = await t.db.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [0x70646d62]);
      await expect(migrateBlobs(t.content.stores, { to: 'filesystem', from: 'filesystem' })).rejects.toThrow(
        MigrationBusyError,
      );
    } finally {
      await other.query('SELECT pg_advisory_unlock($1)', [0x70646d62]);
      other.release();
    }
  });
});
