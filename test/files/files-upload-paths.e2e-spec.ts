import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import type pg from 'pg';
import request from 'supertest';
import { RequestBodyReader } from '../../src/common/request-body.reader.js';
import { FileContent } from '../../src/files/file-content.js';
import { basicAuth, listeningPort, RawConnection } from '../helpers/raw-http.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { removeStoreBlobs, startTestStore, type TestStore } from './file-stores.js';
import { binaryParser, importFilesFixture, itemsOf, oidOf, removeFilesFixture } from './files-fixtures.js';

const DOC = 'wt.doc.WTDocument';
const MiB = 1024 * 1024;
const CHUNK = 256 * 1024;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * How a raw upload is received into the postgres store, by its size: into memory (up to 4 MiB
 * with a Content-Length, while BODY_MEMORY_BUDGET has room), copied into PostgreSQL as it
 * arrives (larger ones, while a stream is free), or spooled to a file and written afterwards
 * (the rest). Every way stores the same bytes in the same 256 KiB chunks and leaves nothing
 * behind when it fails. A spool file is seen while the service (this process) has it open
 * (Linux's /proc), so that other processes on the machine spooling uploads of their own into
 * the same temporary folder do not count.
 */
describe('files: the ways a raw upload is received', () => {
  let db: pg.Pool;

  // DB_POOL_MAX 4: one upload at a time streams into PostgreSQL.
  const t = useTestApp({ FILES_CACHE_SIZE: '0', FILES_DISK_CACHE_SIZE: '0', DB_POOL_MAX: '4' });
  beforeAll(async () => {
    await importFilesFixture('FUP');
    db = testPool();
  });
  afterAll(async () => {
    await removeFilesFixture(db, 'FUP');
    await db.end();
  });
  afterEach(() => RawConnection.destroyAll());

  /** The spool files this process has open: uploads being spooled now. */
  const spooled = () =>
    readdirSync('/proc/self/fd')
      .map((fd) => {
        try {
          return basename(readlinkSync(`/proc/self/fd/${fd}`));
        } catch {
          return ''; // closed meanwhile
        }
      })
      .filter((name) => name.startsWith('pdm-upload-'));
  const upload = (name: string, bytes: Buffer, headers: Record<string, string> = {}) =>
    request(t.http)
      .post(`/files/FUP-1/${name}`)
      .auth(...USERS.alice)
      .set({ 'Content-Type': 'application/octet-stream', ...headers })
      .send(bytes);
  const download = (name: string) =>
    request(t.http)
      .get(`/files/FUP-1/${name}`)
      .auth(...USERS.bob)
      .buffer(true)
      .parse(binaryParser);
  const chunkSizes = async (hash: string) =>
    (
      await db.query<{ n: number }>('SELECT octet_length(data) AS n FROM blob_chunks WHERE sha256 = $1 ORDER BY seq', [
        hash,
      ])
    ).rows.map((r) => r.n);
  const blobRows = async (hash: string) =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM content_blobs WHERE sha256 = $1', [hash])).rows[0].n;
  /** Sessions of the service copying chunks in (the test database is this file's while it runs). */
  const copying = async () =>
    (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'COPY blob_chunks%' AND state = 'active'`,
      )
    ).rows[0].n;
  async function waitUntil(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
    for (let i = 0; i < 300; i++) {
      if (await condition()) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`gave up waiting until ${what}`);
  }
  /** Sends the head and the first `sent` bytes of a raw upload; the rest is the caller's. */
  async function startUpload(name: string, length: number, sent: Buffer): Promise<RawConnection> {
    const c = await RawConnection.connect(await listeningPort(t));
    await c.head('POST', `/files/FUP-1/${name}`, {
      Authorization: basicAuth(USERS.alice),
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(length),
    });
    await c.write(sent);
    return c;
  }

  it('receives a 1 MiB upload into memory: no spool file, the usual chunks', async () => {
    const bytes = randomBytes(MiB + 3);
    const c = await startUpload('small.bin', bytes.length, bytes.subarray(0, MiB / 2));
    // The service has taken the upload's length from BODY_MEMORY_BUDGET: it is received into
    // memory, and no spool file is opened for it.
    const budget = t.app.get(RequestBodyReader).budget;
    await waitUntil(() => budget.inUse === bytes.length, 'the upload holds its bytes of the memory budget');
    expect(spooled()).toEqual([]);
    await c.write(bytes.subarray(MiB / 2));
    const res = await c.response();
    expect(res?.status).toBe(201);
    expect(res?.headers.etag).toBe(`"${sha(bytes)}"`);
    expect(await chunkSizes(sha(bytes))).toEqual([CHUNK, CHUNK, CHUNK, CHUNK, 3]);
    const got = await download('small.bin');
    expect(got.status).toBe(200);
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
  });

  it('copies a larger upload into PostgreSQL as it arrives: no spool file, the usual chunks, no temporary rows', async () => {
    const bytes = randomBytes(6 * MiB + 5);
    const c = await startUpload('large.bin', bytes.length, bytes.subarray(0, 2 * MiB));
    await waitUntil(async () => (await copying()) === 1, 'the upload is being copied in');
    expect(spooled()).toEqual([]);
    await c.write(bytes.subarray(2 * MiB));
    const res = await c.response();
    expect(res?.status).toBe(201);
    expect(res?.headers.etag).toBe(`"${sha(bytes)}"`);
    expect(await chunkSizes(sha(bytes))).toEqual([...Array<number>(24).fill(CHUNK), 5]);
    expect((await db.query(`SELECT 1 FROM content_blobs WHERE sha256 LIKE 'upload %'`)).rowCount).toBe(0);
    expect(spooled()).toEqual([]);
    const got = await download('large.bin');
    expect(got.status).toBe(200);
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);

    // The same bytes again: stored once, the copied chunks dropped.
    const again = await upload('large-again.bin', bytes);
    expect(again.status).toBe(201);
    expect(await blobRows(sha(bytes))).toBe(1);
    expect((await chunkSizes(sha(bytes))).length).toBe(25);
  });

  it('stores nothing from a copied upload whose digest does not match', async () => {
    const bytes = randomBytes(5 * MiB);
    const oid = await oidOf(db, DOC, 'FUP-1');
    const before = await itemsOf(db, oid);
    const wrong = createHash('sha256').update('something else').digest('base64');
    const res = await upload('bad-digest.bin', bytes, { Digest: `sha-256=${wrong}` });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^the content does not match the SHA-256 digest sent/);
    expect(await blobRows(sha(bytes))).toBe(0);
    expect(await itemsOf(db, oid)).toEqual(before);
  });

  it('leaves nothing when the client goes away mid-copy, and the stream is free again', async () => {
    const oid = await oidOf(db, DOC, 'FUP-1');
    const before = await itemsOf(db, oid);
    for (let i = 0; i < 3; i++) {
      const c = await startUpload(`cut-${i}.bin`, 8 * MiB, randomBytes(3 * MiB));
      await waitUntil(async () => (await copying()) === 1, 'the upload is being copied in');
      c.destroy();
      await waitUntil(async () => (await copying()) === 0, 'the copy is rolled back');
    }
    expect(await itemsOf(db, oid)).toEqual(before);
    // Each cut upload gave its stream back: the next large one streams (no spool file) again.
    const bytes = randomBytes(5 * MiB);
    const c = await startUpload('after-cut.bin', bytes.length, bytes.subarray(0, MiB));
    await waitUntil(async () => (await copying()) === 1, 'the next upload is being copied in');
    expect(spooled()).toEqual([]);
    await c.write(bytes.subarray(MiB));
    expect((await c.response())?.status).toBe(201);
    expect(Buffer.compare((await download('after-cut.bin')).body as Buffer, bytes)).toBe(0);
  });

  it('answers 503 and stores nothing when the database connection dies mid-copy, and keeps serving', async () => {
    const oid = await oidOf(db, DOC, 'FUP-1');
    const before = await itemsOf(db, oid);
    const bytes = randomBytes(6 * MiB);
    const c = await startUpload('killed.bin', bytes.length, bytes.subarray(0, 2 * MiB));
    await waitUntil(async () => (await copying()) === 1, 'the upload is being copied in');
    await db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND query LIKE 'COPY blob_chunks%' AND state = 'active'`,
    );
    await c.write(bytes.subarray(2 * MiB));
    const res = await c.response();
    expect(res?.status).toBe(503);
    expect(JSON.parse(res!.body)).toMatchObject({
      statusCode: 503,
      message: 'the database is unavailable; retry shortly',
    });
    expect(res?.headers['retry-after']).toBe('5');
    expect(await blobRows(sha(bytes))).toBe(0);
    expect(await itemsOf(db, oid)).toEqual(before);
    const again = await upload('killed.bin', bytes);
    expect(again.status).toBe(201);
    expect(Buffer.compare((await download('killed.bin')).body as Buffer, bytes)).toBe(0);
  });

  it('spools a large upload while the one stream is taken, and one without a length', async () => {
    const first = randomBytes(5 * MiB);
    const second = randomBytes(5 * MiB + 1);
    const a = await startUpload('first.bin', first.length, first.subarray(0, MiB));
    await waitUntil(async () => (await copying()) === 1, 'the first upload is being copied in');
    const b = await startUpload('second.bin', second.length, second.subarray(0, MiB));
    await waitUntil(() => spooled().length === 1, 'the second upload is spooled');
    await a.write(first.subarray(MiB));
    await b.write(second.subarray(MiB));
    expect((await a.response())?.status).toBe(201);
    expect((await b.response())?.status).toBe(201);
    await waitUntil(() => spooled().length === 0, 'the spool file is removed');
    expect(await chunkSizes(sha(second))).toEqual([...Array<number>(20).fill(CHUNK), 1]);
    expect(Buffer.compare((await download('second.bin')).body as Buffer, second)).toBe(0);

    // Chunked: no length to stream or buffer by, so it is spooled (and stored the same way).
    const chunked = randomBytes(600 * 1024);
    const c = await RawConnection.connect(await listeningPort(t));
    await c.head('POST', '/files/FUP-1/chunked.bin', {
      Authorization: basicAuth(USERS.alice),
      'Content-Type': 'application/octet-stream',
      'Transfer-Encoding': 'chunked',
    });
    await c.write(Buffer.concat([Buffer.from(`${chunked.length.toString(16)}\r\n`), chunked, Buffer.from('\r\n')]));
    await waitUntil(() => spooled().length === 1, 'the chunked upload is spooled');
    await c.write('0\r\n\r\n');
    expect((await c.response())?.status).toBe(201);
    expect(await chunkSizes(sha(chunked))).toEqual([CHUNK, CHUNK, 600 * 1024 - 2 * CHUNK]);
  });
});

/** A copied upload of bytes that are recorded in another store already (FILES_STORE=postgres beside a vault). */
describe('files: a copied upload of bytes recorded in another store', () => {
  let t: TestApp;
  let db: pg.Pool;
  let vault: TestStore;
  let content: FileContent;

  beforeAll(async () => {
    await importFilesFixture('FUQ');
    vault = await startTestStore('filesystem');
    t = await createTestApp({
      ...vault.env,
      FILES_STORE: 'postgres',
      FILES_CACHE_SIZE: '0',
      FILES_DISK_CACHE_SIZE: '0',
    });
    content = t.app.get(FileContent);
    db = testPool();
  });
  afterAll(async () => {
    await t.close();
    await vault.stop();
    await removeFilesFixture(db, 'FUQ');
    await removeStoreBlobs(db);
    await db.end();
  });

  const upload = (name: string, bytes: Buffer) =>
    request(t.http)
      .post(`/files/FUQ-1/${name}`)
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(bytes);
  const blob = async (hash: string) => ({
    store: (await db.query<{ store: string }>('SELECT store FROM content_blobs WHERE sha256 = $1', [hash])).rows[0]
      ?.store,
    chunks: (await db.query('SELECT 1 FROM blob_chunks WHERE sha256 = $1', [hash])).rowCount,
  });

  it('leaves them where they are when that store holds them', async () => {
    const bytes = randomBytes(5 * MiB);
    await content.stores.get('filesystem').write({ sha256: sha(bytes), size: bytes.length, bytes });
    await db.query(`INSERT INTO content_blobs (sha256, size, store) VALUES ($1, $2, 'filesystem')`, [
      sha(bytes),
      bytes.length,
    ]);
    expect((await upload('held.bin', bytes)).status).toBe(201);
    expect(await blob(sha(bytes))).toEqual({ store: 'filesystem', chunks: 0 });
  });

  it('keeps the copy, moving the blob to PostgreSQL, when that store has lost them', async () => {
    const bytes = randomBytes(5 * MiB);
    await db.query(`INSERT INTO content_blobs (sha256, size, store) VALUES ($1, $2, 'filesystem')`, [
      sha(bytes),
      bytes.length,
    ]);
    expect((await upload('lost.bin', bytes)).status).toBe(201);
    expect(await blob(sha(bytes))).toEqual({ store: 'postgres', chunks: 20 });
    const got = await request(t.http)
      .get('/files/FUQ-1/lost.bin')
      .auth(...USERS.bob)
      .buffer(true)
      .parse(binaryParser);
    expect(got.status).toBe(200);
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
  });
});
