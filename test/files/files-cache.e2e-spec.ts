import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import {
  binaryParser,
  importFilesFixture,
  removeFilesFixture,
  restoreBlob,
  scribbleBlob,
  uploadRaw,
} from './files-fixtures.js';

/**
 * Small files are kept in memory once downloaded (FILES_CACHE_SIZE, FILES_CACHE_MAX_FILE).
 * Stored bytes never change, so to see where a download's bytes come from, these tests change
 * them behind the service's back: a cached file still comes out as it was read first.
 */
describe('files: the cache of small files', () => {
  let db: pg.Pool;
  const apps: TestApp[] = [];
  const small = randomBytes(300 * 1024 + 7); // two chunks
  const sha = createHash('sha256').update(small).digest('hex');

  beforeAll(async () => {
    await importFilesFixture('FC');
    db = testPool();
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await removeFilesFixture(db, 'FC');
    await db.end();
  });

  async function app(env: Record<string, string> = {}): Promise<TestApp> {
    const t = await createTestApp(env);
    apps.push(t);
    return t;
  }

  const download = (t: TestApp, path: string, user: readonly [string, string] = USERS.bob) =>
    request(t.http)
      .get(path)
      .auth(...user)
      .buffer(true)
      .parse(binaryParser);

  it('sends a small file from memory once it was read, whole and in ranges', async () => {
    const t = await app();
    await uploadRaw(t.http, 'FC-1', 'cached.bin', small);
    const first = await download(t, '/files/FC-1/cached.bin');
    expect(first.status).toBe(200);
    expect(Buffer.compare(first.body as Buffer, small)).toBe(0);

    await scribbleBlob(db, sha);
    try {
      const again = await download(t, '/files/FC-1/cached.bin');
      expect(again.status).toBe(200);
      expect(again.headers['content-length']).toBe(String(small.length));
      expect(again.headers.etag).toBe(`"${sha}"`);
      expect(Buffer.compare(again.body as Buffer, small)).toBe(0);

      const range = await download(t, '/files/FC-1/cached.bin').set('Range', 'bytes=262140-262150');
      expect(range.status).toBe(206);
      expect(range.headers['content-range']).toBe(`bytes 262140-262150/${small.length}`);
      expect(Buffer.compare(range.body as Buffer, small.subarray(262140, 262151))).toBe(0);

      // Another instance has not read it: it sends what the database holds now.
      const other = await app();
      const fresh = await download(other, '/files/FC-1/cached.bin');
      expect(fresh.status).toBe(200);
      expect(Buffer.compare(fresh.body as Buffer, Buffer.alloc(small.length))).toBe(0);
    } finally {
      await restoreBlob(db, sha, small);
    }
  });

  it('still checks permissions for cached files', async () => {
    const t = await app();
    await uploadRaw(t.http, 'FC-1', 'members-only.bin', small);
    expect((await download(t, '/files/FC-1/members-only.bin')).status).toBe(200);
    const outsider = await download(t, '/files/FC-1/members-only.bin', USERS.carol);
    expect(outsider.status).toBe(404);
    expect(JSON.parse((outsider.body as Buffer).toString())).toMatchObject({
      statusCode: 404,
      message: expect.stringContaining('FC-1'),
    });
  });

  it('streams files over FILES_CACHE_MAX_FILE, and everything with FILES_CACHE_SIZE=0, from the database', async () => {
    const bigger = randomBytes(2048);
    const biggerSha = createHash('sha256').update(bigger).digest('hex');
    // The disk cache (files-disk-cache.e2e-spec.ts) is off here.
    const settings: Record<string, string>[] = [
      { FILES_CACHE_MAX_FILE: '1kb', FILES_DISK_CACHE_SIZE: '0' },
      { FILES_CACHE_SIZE: '0', FILES_DISK_CACHE_SIZE: '0' },
    ];
    for (const env of settings) {
      const t = await app(env);
      await uploadRaw(t.http, 'FC-1', 'streamed.bin', bigger);
      expect(Buffer.compare((await download(t, '/files/FC-1/streamed.bin')).body as Buffer, bigger)).toBe(0);
      await scribbleBlob(db, biggerSha);
      try {
        const again = await download(t, '/files/FC-1/streamed.bin');
        expect(again.status).toBe(200);
        expect(Buffer.compare(again.body as Buffer, Buffer.alloc(bigger.length))).toBe(0);
      } finally {
        await restoreBlob(db, biggerSha, bigger);
      }
    }
  });

  it('gives simultaneous first downloads the same bytes', async () => {
    const t = await app();
    const bytes = randomBytes(600 * 1024);
    await uploadRaw(t.http, 'FC-1', 'together.bin', bytes);
    const all = await Promise.all(Array.from({ length: 8 }, () => download(t, '/files/FC-1/together.bin')));
    for (const res of all) {
      expect(res.status).toBe(200);
      expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    }
  });

  it('refuses a file whose stored chunks fall short of its size, and does not keep it', async () => {
    const t = await app();
    const bytes = randomBytes(260 * 1024); // two chunks
    const hash = createHash('sha256').update(bytes).digest('hex');
    await uploadRaw(t.http, 'FC-1', 'damaged.bin', bytes);
    const last = await db.query<{ data: Buffer }>(
      'DELETE FROM blob_chunks WHERE sha256 = $1 AND seq = 1 RETURNING data',
      [hash],
    );
    try {
      const res = await download(t, '/files/FC-1/damaged.bin');
      expect(res.status).toBe(502);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse((res.body as Buffer).toString())).toMatchObject({
        statusCode: 502,
        message: 'the content of damaged.bin in the file store is damaged',
      });
    } finally {
      await db.query('INSERT INTO blob_chunks (sha256, seq, data) VALUES ($1, 1, $2)', [hash, last.rows[0].data]);
    }
    const repaired = await download(t, '/files/FC-1/damaged.bin');
    expect(repaired.status).toBe(200);
    expect(Buffer.compare(repaired.body as Buffer, bytes)).toBe(0);
  });
});
