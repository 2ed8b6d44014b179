import { createHash } from 'node:crypto';
import { mkdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import type { BlobStore } from '../../src/files/stores/blob-store.js';
import { BlobSweeper } from '../../src/files/stores/blob-sweeper.js';
import { BlobsRepository, WALK_LOCK } from '../../src/files/stores/blobs.repository.js';
import { sweepUnrecordedBlobs } from '../../src/files/stores/store-walk.js';
import { USERS } from '../helpers/test-app.js';
import { ageObject, useStoreApp } from './file-stores.js';
import { binaryParser } from './files-fixtures.js';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const DAY = 24 * 60 * 60 * 1000;

/**
 * The sweep's walk of the vault and the bucket: bytes that no content_blobs row names (a claim
 * lost in a database crash) are removed once older than FILES_STORE_SWEEP_GRACE_MS (a day by
 * default); bytes a row names, young bytes and bytes an upload is claiming are kept.
 */
describe.each(['filesystem', 's3'] as const)('the sweep walks the %s store for bytes no row names', (storeName) => {
  const PREFIX = `SWK${storeName.slice(0, 2).toUpperCase()}`;
  const t = useStoreApp(storeName, { fixture: PREFIX, env: { FILES_SWEEP_INTERVAL_MS: '0' } });
  let blobs: BlobStore;
  let n = 0;

  /** Bytes of this test alone. */
  const fresh = (what: string) => Buffer.from(`${what} ${storeName} ${Date.now()} ${n++} ${Math.random()}`);
  /** Writes bytes to the store as an upload would, but records no row: what a lost claim leaves. */
  const putUnrecorded = async (bytes: Buffer, ageMs = 0) => {
    await blobs.write({ sha256: sha(bytes), size: bytes.length, bytes });
    if (ageMs) await ageObject(t.store, sha(bytes), ageMs);
  };
  const inStore = (bytes: Buffer) => blobs.has(sha(bytes), bytes.length);
  const upload = (name: string, bytes: Buffer) =>
    request(t.http)
      .post(`/files/${PREFIX}-1/${name}`)
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(bytes);
  const download = (name: string) =>
    request(t.http)
      .get(`/files/${PREFIX}-1/${name}`)
      .auth(...USERS.bob)
      .buffer(true)
      .parse(binaryParser);
  const sweeper = () => t.app.get(BlobSweeper);

  beforeAll(() => {
    blobs = t.content.stores.get(storeName);
  });

  it('removes old bytes no row names, and keeps young ones and those a row names', async () => {
    const lost = fresh('lost claim');
    await putUnrecorded(lost, 2 * DAY);
    const young = fresh('young, no row yet');
    await putUnrecorded(young);
    const used = fresh('used by a file');
    expect((await upload('used.txt', used)).status).toBe(201);
    await ageObject(t.store, sha(used), 2 * DAY);
    // Claimed, the bytes written, no file row yet: the row sweep's to judge, an hour after the claim.
    const claimed = fresh('claimed');
    expect((await new BlobsRepository(t.db).claim(sha(claimed), claimed.length, storeName)).inserted).toBe(true);
    await putUnrecorded(claimed, 2 * DAY);
    // Old bytes without a row that an upload of the same bytes then claims: the upload finds
    // them whole and does not write them again, and from then on a row names them.
    const revived = fresh('revived');
    await putUnrecorded(revived, 2 * DAY);
    expect((await upload('revived.txt', revived)).status).toBe(201);

    await sweeper().sweep();
    expect(await inStore(lost)).toBe(false);
    expect(await inStore(young)).toBe(true);
    expect(await inStore(used)).toBe(true);
    expect(await inStore(claimed)).toBe(true);
    expect(await inStore(revived)).toBe(true);
    for (const [name, bytes] of [
      ['used.txt', used],
      ['revived.txt', revived],
    ] as const) {
      const got = await download(name);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(bytes);
    }
  });

  it('walks a store on one instance at a time', async () => {
    const lost = fresh('lost while another walks');
    await putUnrecorded(lost, 2 * DAY);
    const other = await t.db.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1, hashtext($2))', [WALK_LOCK, storeName]);
      expect(await sweeper().walkStores()).toBe(0);
      expect(await inStore(lost)).toBe(true);
    } finally {
      await other.query('SELECT pg_advisory_unlock($1, hashtext($2))', [WALK_LOCK, storeName]);
      other.release();
    }
    expect(await sweeper().walkStores()).toBe(1);
    expect(await inStore(lost)).toBe(false);
  });

  it('an upload of bytes the walk is removing waits for it, then writes them anew', async () => {
    const bytes = fresh('raced');
    await putUnrecorded(bytes, 2 * DAY);
    let second: Promise<request.Response> | undefined;
    const removed = await new BlobsRepository(t.db).deleteUnrecorded(sha(bytes), bytes.length, storeName, async () => {
      // The walk holds the blob's key; an upload of the same bytes starts now and must wait.
      second = upload('raced.txt', bytes).then((r) => r);
      await waitUntil(async () => {
        const waiting = await t.db.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO content_blobs%'`,
        );
        return waiting.rowCount! > 0;
      }, "the upload's claim waits for the walk");
      await blobs.delete(sha(bytes));
    });
    expect(removed).toBe(true);
    const res = await second!;
    expect(res.status).toBe(201);
    expect((await t.db.query('SELECT store FROM content_blobs WHERE sha256 = $1', [sha(bytes)])).rows).toEqual([
      { store: storeName },
    ]);
    expect(await inStore(bytes)).toBe(true);
    const got = await download('raced.txt');
    expect(got.status).toBe(200);
    expect(got.body).toEqual(bytes);
  });

  it('keeps bytes a row names, even when the row came after the walk listed them', async () => {
    const bytes = fresh('claimed under the walk');
    await putUnrecorded(bytes, 2 * DAY);
    expect((await new BlobsRepository(t.db).claim(sha(bytes), bytes.length, storeName)).inserted).toBe(true);
    const removed = await new BlobsRepository(t.db).deleteUnrecorded(sha(bytes), bytes.length, storeName, () =>
      blobs.delete(sha(bytes)),
    );
    expect(removed).toBe(false);
    expect(await inStore(bytes)).toBe(true);
  });

  it('lists at most the configured number of blobs a second', async () => {
    for (let i = 0; i < 3; i++) await putUnrecorded(fresh('paced'));
    const lock = await t.db.connect();
    try {
      const rate = 20;
      const started = Date.now();
      const result = await sweepUnrecordedBlobs(new BlobsRepository(t.db), lock, blobs, {
        graceMs: DAY,
        ratePerSecond: rate,
      });
      const took = Date.now() - started;
      expect(result).toEqual({ listed: expect.any(Number) as number, removed: 0 });
      expect(result!.listed).toBeGreaterThanOrEqual(3);
      expect(took).toBeGreaterThanOrEqual((result!.listed * 1000) / rate - 20);
    } finally {
      lock.release();
    }
  });

  if (storeName === 'filesystem') {
    it('leaves files in the vault alone that are not blobs', async () => {
      const foreign = join(t.store.dir!, 'ab', 'cd', 'notes.txt');
      await mkdir(join(t.store.dir!, 'ab', 'cd'), { recursive: true });
      await writeFile(foreign, 'not a blob');
      const notHere = join(t.store.dir!, 'ab', 'cd', 'ef'.repeat(32));
      await writeFile(notHere, 'a blob name in the wrong folder');
      const old = new Date(Date.now() - 2 * DAY);
      await utimes(foreign, old, old);
      await utimes(notHere, old, old);
      await sweeper().walkStores();
      expect((await stat(foreign)).isFile()).toBe(true);
      expect((await stat(notHere)).isFile()).toBe(true);
    });
  }
});

async function waitUntil(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting until ${what}`);
}
