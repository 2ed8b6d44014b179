import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { BlobSweeper } from '../../src/files/stores/blob-sweeper.js';
import { expectUnavailable } from '../helpers/expect-unavailable.js';
import { basicAuth, listeningPort, RawConnection } from '../helpers/raw-http.js';
import { USERS } from '../helpers/test-app.js';
import { STORE_NAMES, useStoreApp } from './file-stores.js';
import { b64, binaryParser, itemsOf, oidOf } from './files-fixtures.js';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const DOC = 'wt.doc.WTDocument';

/** The same file-service behaviour whichever store holds the bytes. */
describe.each(STORE_NAMES)('files in the %s store', (storeName) => {
  const PREFIX = `FST${storeName.slice(0, 2).toUpperCase()}`;
  // No caches: every download reads the store.
  const t = useStoreApp(storeName, { fixture: PREFIX, env: { FILES_SWEEP_INTERVAL_MS: '0' } });

  const path = (name: string, number = `${PREFIX}-1`) => `/files/${number}/${encodeURIComponent(name)}`;
  const upload = (name: string, bytes: Buffer, number?: string) =>
    request(t.http)
      .post(path(name, number))
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(bytes);
  const download = (name: string, headers: Record<string, string> = {}) =>
    request(t.http)
      .get(path(name))
      .auth(...USERS.bob)
      .set(headers)
      .buffer(true)
      .parse(binaryParser);
  const blobRow = async (hash: string) =>
    (await t.db.query<{ store: string }>('SELECT store FROM content_blobs WHERE sha256 = $1', [hash])).rows[0] ?? null;
  /** Whether the store holds the bytes (postgres: blob_chunks rows). */
  const inStore = (hash: string, size: number) => t.content.stores.get(storeName).has(hash, size);
  const age = (hash: string) =>
    t.db.query(`UPDATE content_blobs SET stored_at = now() - interval '2 hours' WHERE sha256 = $1`, [hash]);
  const sweep = () => t.app.get(BlobSweeper).sweep();

  it('stores an upload in the store, records which, and reads it back whole', async () => {
    // Larger than one S3 part (8 MiB) and one vault copy chunk: a multipart upload on S3.
    const bytes = randomBytes(9 * 1024 * 1024 + 17);
    const res = await upload('large.bin', bytes);
    expect(res.status).toBe(201);
    expect(res.headers.etag).toBe(`"${sha(bytes)}"`);
    expect(await blobRow(sha(bytes))).toEqual({ store: storeName });
    expect(await inStore(sha(bytes), bytes.length)).toBe(true);

    const got = await download('large.bin');
    expect(got.status).toBe(200);
    expect(got.headers['content-length']).toBe(String(bytes.length));
    expect(got.headers.etag).toBe(`"${sha(bytes)}"`);
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
  });

  it('answers ranges and conditional requests from the store', async () => {
    const bytes = randomBytes(300_000);
    expect((await upload('ranged.bin', bytes)).status).toBe(201);
    const part = await download('ranged.bin', { Range: 'bytes=1000-262999' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-262999/${bytes.length}`);
    expect(Buffer.compare(part.body as Buffer, bytes.subarray(1000, 263000))).toBe(0);
    const tail = await download('ranged.bin', { Range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(Buffer.compare(tail.body as Buffer, bytes.subarray(bytes.length - 10))).toBe(0);
    const same = await download('ranged.bin', { 'If-None-Match': `"${sha(bytes)}"` });
    expect(same.status).toBe(304);
    expect(same.headers.etag).toBe(`"${sha(bytes)}"`);
    const outside = await download('ranged.bin', { Range: `bytes=${bytes.length}-` });
    expect(outside.status).toBe(416);
  });

  it('keeps reading files whose bytes are in another store (the fixture is in postgres)', async () => {
    const got = await download('main.txt');
    expect(got.status).toBe(200);
    expect((got.body as Buffer).toString()).toBe('main content\n');
    expect(await blobRow(sha('main content\n'))).toEqual({ store: 'postgres' });
  });

  it('stores the same bytes once, in the store that has them', async () => {
    const text = `dedup ${storeName} ${Date.now()}`;
    expect((await upload('one.txt', Buffer.from(text))).status).toBe(201);
    expect((await upload('two.txt', Buffer.from(text))).status).toBe(201);
    const res = await request(t.http)
      .post(path('three.txt'))
      .auth(...USERS.alice)
      .send({ data: b64(text) });
    expect(res.status).toBe(201);
    const rows = await t.db.query('SELECT count(*)::int AS n FROM content_items WHERE sha256 = $1', [sha(text)]);
    expect(rows.rows[0].n).toBe(3);
    expect(await blobRow(sha(text))).toEqual({ store: storeName });
    if (t.store.dir && storeName === 'filesystem') {
      const hash = sha(text);
      expect(await readdir(join(t.store.dir, hash.slice(0, 2), hash.slice(2, 4)))).toEqual([hash]);
    }
    // Uploading bytes that exist in postgres records no second copy here.
    expect((await upload('copy-of-main.txt', Buffer.from('main content\n'))).status).toBe(201);
    expect(await blobRow(sha('main content\n'))).toEqual({ store: 'postgres' });
  });

  it('sweeps the bytes of deleted files from the store, and keeps those in use', async () => {
    const gone = Buffer.from(`swept ${storeName} ${Date.now()}`);
    const kept = Buffer.from(`kept ${storeName} ${Date.now()}`);
    expect((await upload('gone.txt', gone)).status).toBe(201);
    expect((await upload('kept.txt', kept)).status).toBe(201);
    const del = await request(t.http)
      .delete(path('gone.txt'))
      .auth(...USERS.alice);
    expect(del.status).toBe(200);
    await age(sha(gone));
    await age(sha(kept));
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await blobRow(sha(gone))).toBeNull();
    expect(await inStore(sha(gone), gone.length)).toBe(false);
    expect(await blobRow(sha(kept))).toEqual({ store: storeName });
    expect(await inStore(sha(kept), kept.length)).toBe(true);
    expect((await download('kept.txt')).status).toBe(200);
  });

  it('leaves no row when an upload is cut off mid-body', async () => {
    const oid = await oidOf(t.db, DOC, `${PREFIX}-3`);
    const before = await itemsOf(t.db, oid);
    const spoolDir = storeName === 'filesystem' ? join(t.store.dir!, '.incoming') : tmpdir();
    const earlier = new Set(await spoolFiles(spoolDir));
    const c = await RawConnection.connect(await listeningPort(t));
    await c.head('POST', path('cut.bin', `${PREFIX}-3`), {
      Authorization: basicAuth(USERS.alice),
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(1024 * 1024),
    });
    await c.write(randomBytes(300_000));
    const ours = async () => (await spoolFiles(spoolDir)).filter((n) => !earlier.has(n));
    for (let i = 0; i < 100 && (await ours()).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    c.destroy();
    // The server notices the abort and removes its spool file (other processes on the machine
    // may spool uploads of their own meanwhile: waited for, not asserted); nothing may remain.
    for (let i = 0; i < 100 && (await ours()).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await itemsOf(t.db, oid)).toEqual(before);
    if (storeName === 'filesystem') expect(await readdir(join(t.store.dir!, '.incoming'))).toEqual([]);
  });

  it('keeps a blob whose file commit failed until the sweep removes it', async () => {
    const bytes = Buffer.from(`failed commit ${storeName} ${Date.now()}`);
    const oid = await oidOf(t.db, DOC, `${PREFIX}-3`);
    const before = await itemsOf(t.db, oid);
    await t.db.query(`
      CREATE OR REPLACE FUNCTION pdm_test_kill_self() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW; END $$`);
    await t.db.query(
      `CREATE TRIGGER pdm_test_kill_items BEFORE INSERT ON content_items FOR EACH ROW
       WHEN (NEW.sha256 = '${sha(bytes)}') EXECUTE FUNCTION pdm_test_kill_self()`,
    );
    try {
      expectUnavailable(await upload('commit.txt', bytes, `${PREFIX}-3`));
    } finally {
      await t.db.query('DROP TRIGGER IF EXISTS pdm_test_kill_items ON content_items');
    }
    expect(await itemsOf(t.db, oid)).toEqual(before);
    // The bytes were durable before the commit was tried: an orphan, swept once old enough.
    expect(await blobRow(sha(bytes))).toEqual({ store: storeName });
    expect(await inStore(sha(bytes), bytes.length)).toBe(true);
    await sweep();
    expect(await inStore(sha(bytes), bytes.length)).toBe(true);
    await age(sha(bytes));
    await sweep();
    expect(await blobRow(sha(bytes))).toBeNull();
    expect(await inStore(sha(bytes), bytes.length)).toBe(false);
  });
});

/** Spooled uploads: in the system's temporary folder, or beside the vault when that is the store. */
async function spoolFiles(dir = tmpdir()): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.startsWith('pdm-upload-'));
}
