import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import type pg from 'pg';
import request from 'supertest';
import { BATCH_SELECT, SET_BATCH } from '../../src/files/stores/blob-chunks.repository.js';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { b64, binaryParser, importFilesFixture, removeFilesFixture, itemsOf, oidOf } from './files-fixtures.js';

const DOC = 'wt.doc.WTDocument';
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const CHUNK = 256 * 1024;
const spooled = () => readdirSync(tmpdir()).filter((f) => f.startsWith('pdm-upload-')).length;

/** A raw HTTP request (chunked when no length is given) to a listening app. */
function rawPost(
  port: number,
  path: string,
  parts: Buffer[],
  opts: { length?: number; abortAfter?: number } = {},
): Promise<{ status: number; body: string } | 'aborted'> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      port,
      path,
      method: 'POST',
      auth: USERS.alice.join(':'),
      headers: {
        'Content-Type': 'application/octet-stream',
        ...(opts.length !== undefined && { 'Content-Length': String(opts.length) }),
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', (e) => (opts.abortAfter !== undefined ? resolve('aborted') : reject(e)));
    parts.forEach((p, i) => {
      req.write(p);
      if (opts.abortAfter === i) setTimeout(() => req.destroy(), 100);
    });
    if (opts.abortAfter === undefined) req.end();
  });
}

describe('files: raw uploads, large files, limits and concurrency', () => {
  let db: pg.Pool;
  const big = randomBytes(3 * CHUNK + 1234);
  // Nothing is kept in memory or on disk: every download here streams from the database.
  const t = useTestApp({ FILES_CACHE_SIZE: '0', FILES_DISK_CACHE_SIZE: '0' });
  beforeAll(async () => {
    await importFilesFixture('FS');
    db = testPool();
  });
  afterAll(async () => {
    await removeFilesFixture(db, 'FS');
    await db.end();
  });

  const download = (path: string, headers: Record<string, string> = {}) =>
    request(t.http)
      .get(path)
      .auth(...USERS.bob)
      .set(headers)
      .buffer(true)
      .parse(binaryParser);

  it('takes raw bytes with URL parameters, stores them in 256 KiB chunks and streams them back', async () => {
    const res = await request(t.http)
      .post('/files/FS-1/big.bin?role=PRIMARY&message=raw%20upload')
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(big);
    expect(res.status).toBe(201);
    expect(res.headers.etag).toBe(`"${sha(big)}"`);
    const stored = (await itemsOf(db, await oidOf(db, DOC, 'FS-1'))).find((i) => i.file_name === 'big.bin');
    expect(stored).toMatchObject({
      role: 'PRIMARY',
      message: 'raw upload',
      size: String(big.length),
      sha256: sha(big),
    });
    const chunks = await db.query<{ seq: number; n: number }>(
      'SELECT seq, octet_length(data) AS n FROM blob_chunks WHERE sha256 = $1 ORDER BY seq',
      [sha(big)],
    );
    expect(chunks.rows).toEqual([
      { seq: 0, n: CHUNK },
      { seq: 1, n: CHUNK },
      { seq: 2, n: CHUNK },
      { seq: 3, n: 1234 },
    ]);
    const got = await download('/files/FS-1/big.bin');
    expect(got.status).toBe(200);
    expect(got.headers['content-length']).toBe(String(big.length));
    expect(got.body.equals(big)).toBe(true);
  });

  it.each([
    ['inside one chunk', 10, 20],
    ['across a chunk boundary', CHUNK - 5, CHUNK + 5],
    ['exactly one chunk', CHUNK, 2 * CHUNK - 1],
    ['across several chunks to the end', CHUNK + 1, 3 * CHUNK + 1233],
  ])('serves a range %s', async (_case, start, end) => {
    const res = await download('/files/FS-1/big.bin', { Range: `bytes=${start}-${end}` });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${big.length}`);
    expect(res.body.equals(big.subarray(start, end + 1))).toBe(true);
  });

  it('reads blobs stored in chunks of other sizes (bulk loaders)', async () => {
    const bytes = randomBytes(1000);
    const hash = sha(bytes);
    const holder = Number((await oidOf(db, DOC, 'FS-3')).split(':')[2]);
    await db.query('INSERT INTO content_blobs (sha256, size) VALUES ($1, 1000)', [hash]);
    for (const [seq, from, to] of [
      [0, 0, 300],
      [1, 300, 301],
      [2, 301, 1000],
    ]) {
      await db.query('INSERT INTO blob_chunks (sha256, seq, data) VALUES ($1, $2, $3)', [
        hash,
        seq,
        bytes.subarray(from, to),
      ]);
    }
    await db.query(
      `INSERT INTO content_items (iteration_id, role, file_name, mime_type, size, sha256) VALUES ($1, 'SECONDARY', 'odd.bin', 'application/octet-stream', 1000, $2)`,
      [holder, hash],
    );
    expect((await download('/files/FS-3/odd.bin')).body.equals(bytes)).toBe(true);
    const part = await download('/files/FS-3/odd.bin', { Range: 'bytes=299-302' });
    expect(part.status).toBe(206);
    expect(part.body.equals(bytes.subarray(299, 303))).toBe(true);
  });

  /** A blob stored directly as chunks of the given sizes (as a bulk loader might), attached to FS-3 as `name`. */
  async function storeChunked(name: string, sizes: number[], seqs = sizes.map((_, i) => i)): Promise<Buffer> {
    const bytes = randomBytes(sizes.reduce((a, b) => a + b, 0));
    const hash = sha(bytes);
    const holder = Number((await oidOf(db, DOC, 'FS-3')).split(':')[2]);
    await db.query('INSERT INTO content_blobs (sha256, size) VALUES ($1, $2)', [hash, bytes.length]);
    let from = 0;
    for (const [i, n] of sizes.entries()) {
      await db.query('INSERT INTO blob_chunks (sha256, seq, data) VALUES ($1, $2, $3)', [
        hash,
        seqs[i],
        bytes.subarray(from, from + n),
      ]);
      from += n;
    }
    await db.query(
      `INSERT INTO content_items (iteration_id, role, file_name, mime_type, size, sha256)
       VALUES ($1, 'SECONDARY', $2, 'application/octet-stream', $3, $4)`,
      [holder, name, bytes.length, hash],
    );
    return bytes;
  }

  it('streams files of many batches, with batches read ahead, whole and in ranges', async () => {
    // 16 chunks per batch: 50 chunks are four batches; the later ones smaller than the first.
    const sizes = [...Array<number>(16).fill(1000), ...Array<number>(34).fill(10)];
    const bytes = await storeChunked('many.bin', sizes);
    const whole = await download('/files/FS-3/many.bin');
    expect(whole.status).toBe(200);
    expect(whole.body.equals(bytes)).toBe(true);
    for (const [start, end] of [
      [15_990, 16_200],
      [16_100, 16_339],
      [0, 16_339],
      [20, 16_001],
    ]) {
      const part = await download('/files/FS-3/many.bin', { Range: `bytes=${start}-${end}` });
      expect(part.status).toBe(206);
      expect(part.body.equals(bytes.subarray(start, end + 1))).toBe(true);
    }
  });

  it('refuses a download rather than send bytes from chunks with a gap in their numbers', async () => {
    await storeChunked('gap.bin', [100, 100, 100], [0, 1, 3]);
    // The first batch of chunks is read before the headers are sent: the gap is found in time.
    const gap = await download('/files/FS-3/gap.bin');
    expect(gap.status).toBe(502);
    expect(JSON.parse(gap.body.toString())).toMatchObject({
      statusCode: 502,
      message: 'the content of gap.bin in the file store is damaged',
    });
    // The service goes on serving.
    const ok = await download('/files/FS-1/big.bin');
    expect(ok.status).toBe(200);
    expect(ok.body.equals(big)).toBe(true);
  });

  it('reads a batch of chunks through the primary key, never by scanning blob_chunks', async () => {
    const client = await db.connect();
    try {
      await client.query('SET enable_seqscan = off');
      await client.query(SET_BATCH, [sha(big), '0']);
      const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${BATCH_SELECT}`);
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index (Only )?Scan using blob_chunks_pkey/);
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });

  it('takes an empty raw body as an empty file', async () => {
    const res = await request(t.http)
      .post('/files/FS-1/empty.bin')
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(0));
    expect(res.status).toBe(201);
    const got = await download('/files/FS-1/empty.bin');
    expect(got.status).toBe(200);
    expect(got.body.length).toBe(0);
  });

  describe('FILES_MAX_SIZE', () => {
    let port: number;
    const small = useTestApp({ FILES_MAX_SIZE: '1kb' });
    beforeAll(async () => {
      await new Promise<void>((resolve) => small.app.getHttpServer().listen(0, '127.0.0.1', resolve));
      port = (small.app.getHttpServer().address() as AddressInfo).port;
    });

    const post = (name: string) =>
      request(small.http)
        .post(`/files/FS-2/${name}`)
        .auth(...USERS.alice);
    const limit = 'the file is larger than the limit of 1024 bytes (FILES_MAX_SIZE)';

    it('stores a file of exactly the limit', async () => {
      expect((await post('limit.bin').send({ data: b64(Buffer.alloc(1024, 7)) })).status).toBe(201);
      const raw = await post('limit-raw.bin')
        .set('Content-Type', 'application/octet-stream')
        .send(Buffer.alloc(1024, 8));
      expect(raw.status).toBe(201);
    });

    it('refuses larger files with 413, as JSON, raw with a length, and raw chunked; nothing is stored', async () => {
      const before = spooled();
      const json = await post('too-big.bin').send({ data: b64(Buffer.alloc(1025)) });
      expect(json.status).toBe(413);
      expect(json.body.message).toBe(limit);
      const raw = await post('too-big.bin').set('Content-Type', 'application/octet-stream').send(Buffer.alloc(2000));
      expect(raw.status).toBe(413);
      expect(raw.body.message).toBe(limit);
      const chunked = await rawPost(port, '/files/FS-2/too-big.bin', [Buffer.alloc(600), Buffer.alloc(600)]);
      expect(chunked).toEqual({ status: 413, body: expect.stringContaining(limit) });
      expect((await itemsOf(db, await oidOf(db, DOC, 'FS-2'))).map((i) => i.file_name)).not.toContain('too-big.bin');
      expect(spooled()).toBe(before);
    });

    it('stores nothing when the client aborts an upload, and keeps serving', async () => {
      const before = spooled();
      const result = await rawPost(port, '/files/FS-2/aborted.bin', [Buffer.alloc(100)], {
        length: 1000,
        abortAfter: 0,
      });
      expect(result).toBe('aborted');
      // The server removes the spool file once it has seen the client go (polled: a busy machine is slow).
      for (let i = 0; i < 500 && spooled() !== before; i++) await new Promise((r) => setTimeout(r, 20));
      expect((await itemsOf(db, await oidOf(db, DOC, 'FS-2'))).map((i) => i.file_name)).not.toContain('aborted.bin');
      expect(spooled()).toBe(before);
      const after = await post('after-abort.bin').send({ data: b64('still fine') });
      expect(after.status).toBe(201);
    });
  });

  describe('concurrent changes', () => {
    const post = (path: string, body: object, headers: Record<string, string> = {}) =>
      request(t.http)
        .post(path)
        .auth(...USERS.alice)
        .set(headers)
        .send(body);

    it('lets exactly one of two updates with the same If-Match win; the other gets 412', async () => {
      const created = await post('/files/FS-3/race.txt', { data: b64('start') });
      const results = await Promise.all(
        ['left', 'right'].map((v) =>
          post('/files/FS-3/race.txt', { data: b64(v) }, { 'If-Match': created.headers.etag }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
      const winner = results.find((r) => r.status === 200)!;
      const content = (await download('/files/FS-3/race.txt')).body.toString();
      expect(`"${sha(content)}"`).toBe(winner.headers.etag);
    });

    it('applies parallel unconditional updates one after another: one row, one of the contents', async () => {
      const values = Array.from({ length: 8 }, (_, i) => `value ${i}`);
      const results = await Promise.all(values.map((v) => post('/files/FS-3/parallel.txt', { data: b64(v) })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
      const rows = (await itemsOf(db, await oidOf(db, DOC, 'FS-3'))).filter((i) => i.file_name === 'parallel.txt');
      expect(rows).toHaveLength(1);
      expect(values.map((v) => sha(v))).toContain(rows[0].sha256);
    });

    it('makes one iteration per parallel iterate=true by number; by the same OID only the first wins', async () => {
      const results = await Promise.all(
        [0, 1, 2, 3].map((i) => post(`/files/FS-1/iter-${i}.txt`, { data: b64(String(i)), iterate: true })),
      );
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
      const its = await db.query<{ iteration: number; latest: boolean }>(
        `SELECT i.iteration, i.latest FROM iterations i JOIN masters m ON m.id = i.master_id
         WHERE m.class = $1 AND m.number = 'FS-1' ORDER BY i.iteration`,
        [DOC],
      );
      expect(its.rows.map((r) => r.iteration)).toEqual([1, 2, 3, 4, 5]);
      expect(its.rows.filter((r) => r.latest).map((r) => r.iteration)).toEqual([5]);
      const latest = (await itemsOf(db, await oidOf(db, DOC, 'FS-1'))).map((i) => i.file_name);
      expect(latest).toEqual(
        expect.arrayContaining(['iter-0.txt', 'iter-1.txt', 'iter-2.txt', 'iter-3.txt', 'big.bin']),
      );

      const oid = await oidOf(db, DOC, 'FS-1');
      const byOid = await Promise.all(
        [0, 1, 2].map((i) => post(`/files/${oid}/oid-${i}.txt?iterate=true`, { data: b64(String(i)) })),
      );
      expect(byOid.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    });
  });
});
