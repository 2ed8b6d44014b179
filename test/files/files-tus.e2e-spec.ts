import { jest } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { Upload } from 'tus-js-client';
import { BlobSweeper } from '../../src/files/stores/blob-sweeper.js';
import { TusSweeper } from '../../src/files/tus/tus-sweeper.js';
import { TusPgLocker } from '../../src/files/tus/tus-pg-locker.js';
import { TusUploadsService } from '../../src/files/tus/tus-uploads.service.js';
import { recorded } from '../audit/audit-fixtures.js';
import { lockWaiters, pollUntil } from '../helpers/bounded-wait.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { interleave } from '../helpers/interleave.js';
import { basicAuth, listeningPort, RawConnection } from '../helpers/raw-http.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { binaryParser, importFilesFixture, removeFilesFixture } from './files-fixtures.js';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const b64 = (text: string) => Buffer.from(text).toString('base64');
const EXPIRY_MS = 3_600_000;
const USER_MAX_UPLOADS = 4;
const USER_MAX_BYTES = 8 * 1024 * 1024;
const ENVELOPE = { requestId: expect.any(String) as unknown };

type User = readonly [string, string];

/** The content_blobs key of an upload's chunks while it is under way. */
const keyOf = (id: string) => `tus ${id}`;

/** How many backends of the test database wait for a lock another session holds. */
async function waiting(db: pg.Pool): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0`,
  );
  return rows[0].n;
}

/** Upload-Metadata of a new upload of `<ref>/<filename>`, with the options given. */
function metadata(ref: string, filename: string, more: Record<string, string> = {}): string {
  return Object.entries({ ref, filename, ...more })
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');
}

describe('files: resumable uploads (tus)', () => {
  let t: TestApp;
  let db: pg.Pool;
  let port: number;
  const clock = new FakeClock();

  beforeAll(async () => {
    await importFilesFixture('FT');
    db = testPool();
    t = await createTestApp(
      {
        FILES_TUS_EXPIRY_MS: String(EXPIRY_MS),
        FILES_TUS_USER_MAX_UPLOADS: String(USER_MAX_UPLOADS),
        FILES_TUS_USER_MAX_BYTES: String(USER_MAX_BYTES),
        FILES_TUS_SWEEP_INTERVAL_MS: '0',
      },
      { clock },
    );
    port = await listeningPort(t);
  });
  afterEach(async () => {
    RawConnection.destroyAll();
    // Every test leaves no upload behind (the limits count them).
    const left = await db.query<{ id: string }>(`SELECT id FROM tus_uploads`);
    for (const { id } of left.rows) await terminate(id);
    await db.query(`DELETE FROM tus_uploads`);
  });
  afterAll(async () => {
    await t?.close();
    await removeFilesFixture(db, 'FT');
    await db.end();
  });

  const create = (length: number, meta: string, user: User = USERS.alice) =>
    request(t.http)
      .post('/files/tus')
      .auth(...user)
      .set('Tus-Resumable', '1.0.0')
      .set('Upload-Length', String(length))
      .set('Upload-Metadata', meta);
  const head = (location: string, user: User = USERS.alice) =>
    request(t.http)
      .head(new URL(location).pathname)
      .auth(...user)
      .set('Tus-Resumable', '1.0.0');
  const patch = (location: string, offset: number, bytes: Buffer, user: User = USERS.alice) =>
    request(t.http)
      .patch(new URL(location).pathname)
      .auth(...user)
      .set('Tus-Resumable', '1.0.0')
      .set('Upload-Offset', String(offset))
      .set('Content-Type', 'application/offset+octet-stream')
      .send(bytes);
  const terminate = (id: string) =>
    request(t.http)
      .delete(`/files/tus/${id}`)
      .auth(...USERS.alice)
      .set('Tus-Resumable', '1.0.0');
  /** `count` new uploads of 10 bytes, `<name>-<i>.bin`, each created. */
  const openUploads = async (count: number, name: string) => {
    for (let i = 0; i < count; i++) expect((await create(10, metadata('FT-1', `${name}-${i}.bin`))).status).toBe(201);
  };
  /** How many bytes the chunks of an upload hold (null: it has no chunks row). */
  const stored = async (id: string) => {
    const { rows } = await db.query<{ n: string | null; blob: number }>(
      `SELECT (SELECT sum(octet_length(data))::text FROM blob_chunks WHERE sha256 = $1) AS n,
              (SELECT count(*)::int FROM content_blobs WHERE sha256 = $1) AS blob`,
      [keyOf(id)],
    );
    return rows[0].blob === 0 ? null : Number(rows[0].n ?? 0);
  };
  const download = (path: string) =>
    request(t.http)
      .get(path)
      .auth(...USERS.bob)
      .buffer(true)
      .parse(binaryParser);

  it('uploads a file with tus-js-client in parts; it becomes the file, as a raw upload would', async () => {
    const content = randomBytes(300 * 1024 + 17);
    const [url, events] = await recorded(
      db,
      () =>
        new Promise<string>((resolve, reject) => {
          const upload = new Upload(content, {
            endpoint: `http://127.0.0.1:${port}/files/tus`,
            chunkSize: 64 * 1024,
            headers: { Authorization: basicAuth(USERS.alice) },
            metadata: { ref: 'FT-1', filename: 'tus-client.bin', role: 'PRIMARY', message: 'sent with tus' },
            retryDelays: [],
            onError: reject,
            onSuccess: () => resolve(upload.url!),
          });
          upload.start();
        }),
    );
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/files/tus/[0-9a-f]{32}$`));
    const got = await download('/files/FT-1/tus-client.bin');
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBe(`"${sha(content)}"`);
    expect(Buffer.compare(got.body as Buffer, content)).toBe(0);
    const list = await request(t.http)
      .get('/files/FT-1?role=PRIMARY')
      .auth(...USERS.alice);
    expect(list.body.items).toContainEqual(
      expect.objectContaining({
        filename: 'tus-client.bin',
        role: 'PRIMARY',
        size: content.length,
        sha256: sha(content),
      }),
    );
    // The same audit event as a raw upload's, and nothing of the upload is left.
    expect(events).toEqual([
      expect.objectContaining({
        action: 'files.upload',
        detail: expect.objectContaining({
          fileName: 'tus-client.bin',
          after: { role: 'PRIMARY', mimeType: 'application/octet-stream', size: content.length, sha256: sha(content) },
        }) as unknown,
      }),
    ]);
    expect((await db.query(`SELECT 1 FROM tus_uploads`)).rowCount).toBe(0);
    const gone = await head(url);
    expect(gone.status).toBe(404);
  });

  it('resumes from the offset HEAD reports after the connection dropped three times', async () => {
    const content = randomBytes(1024 * 1024 + 3);
    const created = await create(content.length, metadata('FT-1', 'resumed.bin', { message: 'resumed three times' }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({});
    const location = created.headers.location;
    expect(location).toMatch(/\/files\/tus\/[0-9a-f]{32}$/);
    const id = location.split('/').pop()!;
    const store = t.app.get(TusUploadsService).store;

    let offset = 0;
    for (const cut of [100_000, 250_001, 333_333]) {
      // A part announced whole, of which only `cut` bytes arrive before the connection drops.
      const c = await RawConnection.connect(port);
      await c.head('PATCH', new URL(location).pathname, {
        Authorization: basicAuth(USERS.alice),
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(content.length - offset),
      });
      expect(await c.write(content.subarray(offset, offset + cut))).toBe(true);
      await pollUntil(
        () => Promise.resolve(store.receiving(id) === offset + cut),
        'the server has taken in what was sent',
      );
      c.destroy();
      // What arrived is kept, the short last chunk included, although the part was cut off.
      const resumed = await head(location);
      expect(resumed.status).toBe(200);
      expect(resumed.headers['upload-offset']).toBe(String(offset + cut));
      expect(resumed.headers['upload-length']).toBe(String(content.length));
      expect(await stored(id)).toBe(offset + cut);
      offset = Number(resumed.headers['upload-offset']);
    }
    // Resuming from an offset other than the server's is refused.
    const wrong = await patch(location, 0, content.subarray(0, 10));
    expect(wrong.status).toBe(409);

    const done = await patch(location, offset, content.subarray(offset));
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      success: true,
      oid: expect.stringMatching(/^OR:wt\.content\.ApplicationData:\d+$/) as unknown,
      url: expect.stringMatching(/\/files\/FT-1\/resumed\.bin$/) as unknown,
      holder: expect.stringMatching(/^OR:wt\.doc\.WTDocument:\d+$/) as unknown,
    });
    expect(done.headers['upload-offset']).toBe(String(content.length));
    expect(done.headers.etag).toBe(`"${sha(content)}"`);
    const got = await download('/files/FT-1/resumed.bin');
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBe(`"${sha(content)}"`);
    expect(Buffer.compare(got.body as Buffer, content)).toBe(0);
    // The chunks became the blob's: nothing is left under the upload's key.
    expect(await stored(id)).toBeNull();
    const chunks = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM blob_chunks WHERE sha256 = $1`, [
      sha(content),
    ]);
    expect(chunks.rows).toEqual([{ n: 5 }]);
  });

  it('writes an upload of the same bytes as an existing blob into a file sharing it (deduplicated)', async () => {
    const content = Buffer.from('the same bytes twice\n');
    const raw = await request(t.http)
      .post('/files/FT-3/raw-twin.txt')
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(content);
    expect(raw.status).toBe(201);
    const created = await create(content.length, metadata('FT-3', 'tus-twin.txt'));
    expect(created.status).toBe(201);
    const done = await patch(created.headers.location, 0, content);
    expect(done.status).toBe(200);
    expect(done.body.success).toBe(true);
    const blobs = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM content_blobs WHERE sha256 = $1`, [
      sha(content),
    ]);
    expect(blobs.rows).toEqual([{ n: 1 }]);
    const items = await db.query<{ file_name: string }>(
      `SELECT file_name FROM content_items WHERE sha256 = $1 ORDER BY file_name`,
      [sha(content)],
    );
    expect(items.rows.map((r) => r.file_name)).toEqual(['raw-twin.txt', 'tus-twin.txt']);
  });

  it('completes with the right digest after the running hash was lost (a restart, another instance)', async () => {
    const content = randomBytes(600 * 1024 + 5);
    const created = await create(content.length, metadata('FT-1', 'rehashed.bin'));
    expect(created.status).toBe(201);
    const location = created.headers.location;
    const first = await patch(location, 0, content.subarray(0, 300_000));
    expect(first.status).toBe(204);
    expect(first.headers['upload-offset']).toBe('300000');
    // As after a restart: the hash of the first part is computed again from its chunks.
    t.app.get(TusUploadsService).store.hashes.clear();
    const done = await patch(location, 300_000, content.subarray(300_000));
    expect(done.status).toBe(200);
    expect(done.body).toEqual(expect.objectContaining({ success: true }));
    expect(done.headers.etag).toBe(`"${sha(content)}"`);
    const got = await download('/files/FT-1/rehashed.bin');
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBe(`"${sha(content)}"`);
    expect(Buffer.compare(got.body as Buffer, content)).toBe(0);
  });

  it('stores a second upload of the same bytes once: its chunks are dropped, both files share the blob', async () => {
    const content = randomBytes(700 * 1024);
    const ids: string[] = [];
    for (const name of ['twin-a.bin', 'twin-b.bin']) {
      const created = await create(content.length, metadata('FT-3', name));
      expect(created.status).toBe(201);
      ids.push(created.headers.location.split('/').pop()!);
      expect((await patch(created.headers.location, 0, content.subarray(0, 400_000))).status).toBe(204);
      const done = await patch(created.headers.location, 400_000, content.subarray(400_000));
      expect(done.status).toBe(200);
      expect(done.headers.etag).toBe(`"${sha(content)}"`);
    }
    const blob = await db.query<{ chunks: number; bytes: string }>(
      `SELECT count(*)::int AS chunks, sum(octet_length(data))::text AS bytes FROM blob_chunks WHERE sha256 = $1`,
      [sha(content)],
    );
    expect(blob.rows).toEqual([{ chunks: 3, bytes: String(content.length) }]);
    expect(await stored(ids[0])).toBeNull();
    expect(await stored(ids[1])).toBeNull();
    const items = await db.query<{ file_name: string }>(
      `SELECT file_name FROM content_items WHERE sha256 = $1 ORDER BY file_name`,
      [sha(content)],
    );
    expect(items.rows.map((r) => r.file_name)).toEqual(['twin-a.bin', 'twin-b.bin']);
  });

  it('sends Upload-Expires on creation and on each part, and the blob sweep leaves an old upload alone', async () => {
    const created = await create(1000, metadata('FT-1', 'long-running.bin'));
    expect(created.status).toBe(201);
    const location = created.headers.location;
    const id = location.split('/').pop()!;
    const { rows } = await db.query<{ expires_at: Date }>(`SELECT expires_at FROM tus_uploads WHERE id = $1`, [id]);
    const expires = new Date(Math.floor(rows[0].expires_at.getTime() / 1000) * 1000).toUTCString();
    expect(created.headers['upload-expires']).toBe(expires);
    const part = await patch(location, 0, Buffer.alloc(600, 7));
    expect(part.status).toBe(204);
    expect(part.headers['upload-expires']).toBe(expires);
    // Older than the blob sweep's grace period, and no file uses it: still the upload's.
    await db.query(`UPDATE content_blobs SET stored_at = now() - interval '2 days' WHERE sha256 = $1`, [keyOf(id)]);
    await t.app.get(BlobSweeper).sweepUnused();
    expect(await stored(id)).toBe(600);
    const done = await patch(location, 600, Buffer.alloc(400, 7));
    expect(done.status).toBe(200);
    expect(done.headers.etag).toBe(`"${sha(Buffer.alloc(1000, 7))}"`);
  });

  it('takes the first part with the creation (creation-with-upload) and the rest with a PATCH', async () => {
    const content = randomBytes(300_000);
    const created = await create(content.length, metadata('FT-1', 'with-creation.bin'))
      .set('Content-Type', 'application/offset+octet-stream')
      .send(content.subarray(0, 100_000));
    expect(created.status).toBe(201);
    expect(created.headers['upload-offset']).toBe('100000');
    const id = created.headers.location.split('/').pop()!;
    expect(await stored(id)).toBe(100_000);
    const done = await patch(created.headers.location, 100_000, content.subarray(100_000));
    expect(done.status).toBe(200);
    expect(done.headers.etag).toBe(`"${sha(content)}"`);
    expect(await stored(id)).toBeNull();
  });

  it('completes an upload sent whole with its creation, and an empty one, at once', async () => {
    const content = randomBytes(70_000);
    const whole = await create(content.length, metadata('FT-1', 'whole-at-creation.bin'))
      .set('Content-Type', 'application/offset+octet-stream')
      .send(content);
    expect(whole.status).toBe(200);
    expect(whole.body).toEqual(expect.objectContaining({ success: true }));
    expect(whole.headers.etag).toBe(`"${sha(content)}"`);
    const empty = await create(0, metadata('FT-1', 'empty-at-creation.bin'));
    expect(empty.status).toBe(200);
    expect(empty.headers.etag).toBe(`"${sha(Buffer.alloc(0))}"`);
    const got = await download('/files/FT-1/empty-at-creation.bin');
    expect(got.status).toBe(200);
    expect((got.body as Buffer).length).toBe(0);
    // Both go once answered.
    await pollUntil(
      async () => (await db.query(`SELECT 1 FROM tus_uploads`)).rowCount === 0,
      'the completed uploads are gone',
    );
    expect(await db.query(`SELECT 1 FROM content_blobs WHERE sha256 LIKE 'tus %'`)).toEqual(
      expect.objectContaining({ rowCount: 0 }),
    );
  });

  it('expires an unfinished upload, and the sweep removes its row and bytes', async () => {
    const created = await create(1000, metadata('FT-1', 'expiring.bin'));
    expect(created.status).toBe(201);
    const location = created.headers.location;
    const id = location.split('/').pop()!;
    expect((await patch(location, 0, Buffer.alloc(400, 1))).status).toBe(204);
    expect(await stored(id)).toBe(400);

    clock.advance(EXPIRY_MS + 1000);
    const late = await head(location);
    expect(late.status).toBe(404);
    const latePatch = await patch(location, 400, Buffer.alloc(600, 1));
    expect(latePatch.status).toBe(404);
    expect(latePatch.body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: `no resumable upload ${id} of yours (unknown, expired, completed or another user's)`,
      ...ENVELOPE,
    });
    expect(await t.app.get(TusSweeper).sweep()).toBeGreaterThanOrEqual(1);
    expect((await db.query(`SELECT 1 FROM tus_uploads WHERE id = $1`, [id])).rowCount).toBe(0);
    expect(await stored(id)).toBeNull();
  });

  it('refuses uploads past the per-user limits of open uploads and of bytes, with a JSON error', async () => {
    const tooBig = await create(USER_MAX_BYTES + 1, metadata('FT-1', 'big.bin'));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: expect.stringContaining(`over the limit of ${USER_MAX_BYTES} (FILES_TUS_USER_MAX_BYTES)`) as unknown,
      ...ENVELOPE,
    });
    await openUploads(USER_MAX_UPLOADS, 'open');
    const fifth = await create(10, metadata('FT-1', 'one-too-many.bin'));
    expect(fifth.status).toBe(413);
    expect(fifth.body).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message:
        `you have ${USER_MAX_UPLOADS} unfinished resumable uploads, the most one user may have ` +
        `(FILES_TUS_USER_MAX_UPLOADS=${USER_MAX_UPLOADS}); finish or terminate one first`,
      ...ENVELOPE,
    });
    // Terminating one makes room again.
    const { rows } = await db.query<{ id: string }>(`SELECT id FROM tus_uploads LIMIT 1`);
    const terminated = await terminate(rows[0].id);
    expect(terminated.status).toBe(204);
    expect((await create(10, metadata('FT-1', 'room-again.bin'))).status).toBe(201);
  });

  it('keeps the limit when two creations race (two connections forced to interleave)', async () => {
    await openUploads(USER_MAX_UPLOADS - 1, 'race');
    // Both creations count the user's uploads, then wait to insert theirs: with the per-user
    // lock the second counts only after the first has committed.
    const [a, b] = await interleave(
      db,
      'LOCK TABLE tus_uploads IN EXCLUSIVE MODE',
      () => create(10, metadata('FT-1', 'race-a.bin')).then((r) => r),
      () => create(10, metadata('FT-1', 'race-b.bin')).then((r) => r),
    );
    expect([a.status, b.status].sort()).toEqual([201, 413]);
    const loser = a.status === 413 ? a : b;
    expect(loser.body.message).toMatch(/^you have 4 unfinished resumable uploads/);
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tus_uploads`);
    expect(rows).toEqual([{ n: USER_MAX_UPLOADS }]);
  });

  it('completes an upload once when a retry of its completion comes meanwhile (forced to interleave)', async () => {
    const content = randomBytes(10);
    const created = await create(content.length, metadata('FT-1', 'completed-once.bin'));
    expect(created.status).toBe(201);
    const location = created.headers.location;
    expect((await patch(location, 0, content.subarray(0, 5))).status).toBe(204);
    const acquire = jest.spyOn(t.app.get(TusPgLocker), 'acquire');
    // The completion of the last part waits on the upload's chunks; meanwhile the client sends
    // the completion again (an empty part at the full offset, as after a lost answer).
    const held = await db.connect();
    try {
      await held.query('BEGIN');
      await held.query('SELECT 1 FROM content_blobs WHERE sha256 = $1 FOR UPDATE', [keyOf(location.split('/').pop()!)]);
      const last = patch(location, 5, content.subarray(5)).then((r) => r);
      await lockWaiters(db, 1, 'the completion waits on the chunks', { pending: [last] });
      const calls = acquire.mock.calls.length;
      const retry = patch(location, content.length, Buffer.alloc(0)).then((r) => r);
      // The retry waits for the upload's lock (held by the first completion) or, without it,
      // reaches the chunks too.
      await pollUntil(
        async () => acquire.mock.calls.length > calls || (await waiting(db)) >= 2,
        'the retry has reached the upload',
        { pending: [retry] },
      );
      await held.query('COMMIT');
      const [first, second] = await Promise.all([last, retry]);
      expect(first.status).toBe(200);
      expect(first.body).toEqual(expect.objectContaining({ success: true }));
      // The retry finds the upload completed: a 4xx envelope, never a 500 or a second file.
      expect([404, 409]).toContain(second.status);
      expect(second.body).toEqual({
        statusCode: second.status,
        error: expect.any(String) as unknown,
        message: expect.any(String) as unknown,
        ...ENVELOPE,
      });
    } finally {
      held.release();
      acquire.mockRestore();
    }
    const file = await request(t.http)
      .get('/files/FT-1/completed-once.bin')
      .auth(...USERS.alice)
      .buffer(true)
      .parse(binaryParser);
    expect(file.status).toBe(200);
    expect(Buffer.compare(file.body as Buffer, content)).toBe(0);
    expect((await db.query(`SELECT 1 FROM tus_uploads`)).rowCount).toBe(0);
  });

  it('lets only users who may write the object create an upload, and only its creator use it', async () => {
    const readerOnly = await create(10, metadata('FT-1', 'bob.bin'), USERS.bob);
    expect(readerOnly.status).toBe(403);
    expect(readerOnly.body).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: "changing files needs author or manager rights in container 'FT Files'; you may only read there",
      ...ENVELOPE,
    });
    const stranger = await create(10, metadata('FT-1', 'carol.bin'), USERS.carol);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'no wt.doc.WTDocument with number FT-1',
      ...ENVELOPE,
    });

    const created = await create(10, metadata('FT-1', 'alices.bin'));
    expect(created.status).toBe(201);
    const location = created.headers.location;
    const id = location.split('/').pop()!;
    for (const user of [USERS.bob, USERS.admin]) {
      const seen = await head(location, user);
      expect(seen.status).toBe(404);
      const sent = await patch(location, 0, Buffer.alloc(10), user);
      expect(sent.status).toBe(404);
      expect(sent.body.message).toBe(
        `no resumable upload ${id} of yours (unknown, expired, completed or another user's)`,
      );
    }
    expect((await head(location)).headers['upload-offset']).toBe('0');
  });

  it('checks the rights again on completion: an author made reader meanwhile is refused, nothing is written', async () => {
    const created = await create(6, metadata('FT-1', 'demoted.bin'));
    expect(created.status).toBe(201);
    const location = created.headers.location;
    expect((await patch(location, 0, Buffer.from('abc'))).status).toBe(204);
    const setRole = (role: string) =>
      db.query(
        `UPDATE memberships SET role = $1::member_role
         WHERE user_id = (SELECT id FROM users WHERE name = 'alice')
           AND container_id = (SELECT id FROM containers WHERE name = 'FT Files')`,
        [role],
      );
    await setRole('reader');
    try {
      const done = await patch(location, 3, Buffer.from('def'));
      expect(done.status).toBe(403);
      expect(done.headers['content-type']).toMatch(/^application\/json/);
      expect(done.body).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        message: "changing files needs author or manager rights in container 'FT Files'; you may only read there",
        ...ENVELOPE,
      });
    } finally {
      await setRole('author');
    }
    const file = await download('/files/FT-1/demoted.bin');
    expect(file.status).toBe(404);
    expect((await head(location)).status).toBe(404);
  });

  it('refuses bad metadata and lengths with a JSON error', async () => {
    const noRef = await create(10, `filename ${b64('x.bin')}`);
    expect(noRef.status).toBe(400);
    expect(noRef.body.message).toBe(
      'Upload-Metadata needs "ref" (the OID or number of the object) and "filename" (the file to write), base64-encoded',
    );
    const badRole = await create(10, metadata('FT-1', 'x.bin', { role: 'NO_SUCH_ROLE' }));
    expect(badRole.status).toBe(400);
    expect(badRole.body.message).toMatch(/^unknown role "NO_SUCH_ROLE"/);
    const noLength = await request(t.http)
      .post('/files/tus')
      .auth(...USERS.alice)
      .set('Tus-Resumable', '1.0.0')
      .set('Upload-Defer-Length', '1')
      .set('Upload-Metadata', metadata('FT-1', 'x.bin'));
    expect(noLength.status).toBe(400);
    expect(noLength.body.message).toMatch(/^Upload-Length is required/);
    const overMax = await create(t.config.filesMaxSize + 1, metadata('FT-1', 'x.bin'));
    expect(overMax.status).toBe(413);
    expect(overMax.body.message).toBe(
      `the file is larger than the limit of ${t.config.filesMaxSize} bytes (FILES_MAX_SIZE)`,
    );
    expect((await db.query(`SELECT 1 FROM tus_uploads`)).rowCount).toBe(0);
  });

  it('answers an id that is not an upload id 400, saying what one is', async () => {
    const message =
      'id must be an upload id: 32 lowercase hexadecimal digits, as the Location of its creation names it';
    for (const id of ['0123456789ABCDEF0123456789ABCDEF', 'not-an-upload', '0123456789abcdef0123456789abcdef0']) {
      const sent = await patch(`http://x/files/tus/${id}`, 0, Buffer.from('x'));
      const terminated = await terminate(id);
      for (const res of [sent, terminated]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message, ...ENVELOPE });
      }
      expect((await head(`http://x/files/tus/${id}`)).status).toBe(400);
    }
  });

  it("answers the tus protocol's refusals in the JSON error envelope", async () => {
    const created = await create(20, metadata('FT-1', 'refusals.bin'));
    expect(created.status).toBe(201);
    const location = created.headers.location;
    const envelope = (status: number, error: string) => ({
      statusCode: status,
      error,
      message: expect.any(String),
      ...ENVELOPE,
    });
    // An offset other than the server's.
    const wrongOffset = await patch(location, 5, Buffer.from('abc'));
    expect(wrongOffset.status).toBe(409);
    expect(wrongOffset.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(wrongOffset.body).toEqual(envelope(409, 'Conflict'));
    expect(wrongOffset.body.message).toMatch(/offset/i);
    // No Tus-Resumable header.
    const noVersion = await request(t.http)
      .patch(new URL(location).pathname)
      .auth(...USERS.alice)
      .set('Upload-Offset', '0')
      .set('Content-Type', 'application/offset+octet-stream')
      .send(Buffer.from('abc'));
    expect(noVersion.status).toBe(412);
    expect(noVersion.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(noVersion.body).toEqual({ ...envelope(412, 'Precondition Failed'), message: 'Tus-Resumable Required' });
    // A part of another content type.
    const wrongType = await request(t.http)
      .patch(new URL(location).pathname)
      .auth(...USERS.alice)
      .set('Tus-Resumable', '1.0.0')
      .set('Upload-Offset', '0')
      .set('Content-Type', 'text/plain')
      .send('abc');
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toEqual({ ...envelope(400, 'Bad Request'), message: 'Invalid content-type' });
    // A part past the declared length.
    const tooLong = await patch(location, 0, Buffer.alloc(30, 'x'));
    expect(tooLong.status).toBe(413);
    expect(tooLong.body).toEqual(envelope(413, 'Payload Too Large'));
    // Nothing was written: the upload is still at offset 0.
    expect((await head(location)).headers['upload-offset']).toBe('0');
  });

  it('answers every tus request without credentials 401, before reading anything', async () => {
    const created = await create(10, metadata('FT-1', 'auth.bin'));
    const path = new URL(created.headers.location).pathname;
    const answers = await Promise.all([
      request(t.http).post('/files/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', '10'),
      request(t.http).patch(path).set('Tus-Resumable', '1.0.0').set('Upload-Offset', '0'),
      request(t.http).delete(path).set('Tus-Resumable', '1.0.0'),
      request(t.http).options('/files/tus'),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(expect.objectContaining({ statusCode: 401, error: 'Unauthorized' }));
    }
    const unauthenticatedHead = await request(t.http).head(path).set('Tus-Resumable', '1.0.0');
    expect(unauthenticatedHead.status).toBe(401);
    expect((await head(path.replace(/^/, 'http://x'))).headers['upload-offset']).toBe('0');
  });
});
