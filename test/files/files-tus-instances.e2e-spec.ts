import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import request from 'supertest';
import { LOCK_WAIT_MS, pollUntil, withinMs } from '../helpers/bounded-wait.js';
import { basicAuth, listeningPort, RawConnection } from '../helpers/raw-http.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { embeddedTestRun, testPool } from '../helpers/test-database.js';
import { removeStoreBlobs, startTestStore, type TestStore } from './file-stores.js';
import { binaryParser, importFilesFixture, removeFilesFixture } from './files-fixtures.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * Resumable uploads on two instances of the service sharing the database (and, with the vault,
 * FILES_TUS_DIR), as docs/deployment.md has them: the requests of one upload take turns across
 * the instances. With the postgres store the parts go into the database; with the vault, into
 * a file of FILES_TUS_DIR.
 */
// The embedded database serves one connection and one instance.
(embeddedTestRun() ? describe.skip : describe).each(['postgres', 'filesystem'] as const)(
  'files: resumable uploads on two instances (%s store)',
  (storeName) => {
    let a: TestApp;
    let b: TestApp;
    let db: pg.Pool;
    let dir: string;
    let store: TestStore;

    beforeAll(async () => {
      await importFilesFixture('FTI');
      db = testPool();
      dir = await mkdtemp(join(tmpdir(), 'pdm-tus-instances-'));
      store = await startTestStore(storeName);
      const env = { ...store.env, FILES_TUS_DIR: dir, FILES_TUS_SWEEP_INTERVAL_MS: '0' };
      a = await createTestApp(env);
      b = await createTestApp(env);
    });
    afterEach(async () => {
      RawConnection.destroyAll();
      await db.query(`DELETE FROM tus_uploads WHERE ref LIKE 'FTI-%'`);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await removeFilesFixture(db, 'FTI');
      if (storeName !== 'postgres') await removeStoreBlobs(db);
      await db.end();
      await rm(dir, { recursive: true, force: true });
      await store?.stop();
    });

    const tus = (t: TestApp) => ({
      create: (length: number, filename: string) =>
        request(t.http)
          .post('/files/tus')
          .auth(...USERS.alice)
          .set('Tus-Resumable', '1.0.0')
          .set('Upload-Length', String(length))
          .set('Upload-Metadata', `ref ${b64('FTI-1')},filename ${b64(filename)}`),
      head: (path: string) =>
        request(t.http)
          .head(path)
          .auth(...USERS.alice)
          .set('Tus-Resumable', '1.0.0'),
      patch: (path: string, offset: number, bytes: Buffer) =>
        request(t.http)
          .patch(path)
          .auth(...USERS.alice)
          .set('Tus-Resumable', '1.0.0')
          .set('Upload-Offset', String(offset))
          .set('Content-Type', 'application/offset+octet-stream')
          .send(bytes),
    });

    it('keeps a part sent to one instance waiting while the other writes a part of the same upload', async () => {
      const created = await tus(a).create(200, 'two-instances.bin');
      expect(created.status).toBe(201);
      const path = new URL(created.headers.location).pathname;
      const spooled = join(dir, path.split('/').pop()!);
      const first = Buffer.alloc(100, 'a');
      const second = Buffer.alloc(50, 'b');

      // A part announced whole (200 bytes) on instance A, of which 100 arrive: A writes it, holding
      // the upload, and waits for the rest.
      const slow = await RawConnection.connect(await listeningPort(a));
      await slow.head('PATCH', path, {
        Authorization: basicAuth(USERS.alice),
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': '200',
      });
      expect(await slow.write(first)).toBe(true);
      // A writes the part: with the vault, into the spooled file; with the postgres store (which
      // keeps the start of a chunk in memory until more comes), with a COPY into blob_chunks.
      if (storeName === 'filesystem') {
        await pollUntil(async () => (await stat(spooled)).size === 100, 'instance A has stored the first 100 bytes');
      } else {
        await pollUntil(async () => {
          const copying = await db.query(
            `SELECT 1 FROM pg_stat_activity
           WHERE datname = current_database() AND state = 'idle in transaction'
             AND query LIKE 'INSERT INTO content_blobs%'`,
          );
          return copying.rowCount === 1;
        }, 'instance A has begun the part');
      }

      // Meanwhile a part from that offset reaches instance B. It must not write while A does: it
      // asks A to let go, and A ends the slow request, keeping what it received (tus-js-client
      // does this when it resumes after a stall), before B writes.
      const sent = tus(b).patch(path, 100, second);
      const answered = await withinMs(
        Promise.race([
          slow.response().then((res) => ({ first: 'the slow part on A', res })),
          sent.then((res) => ({ first: 'the part on B', res })),
        ]),
        LOCK_WAIT_MS,
        'one of the two parts is answered',
      );
      expect(answered.first).toBe('the slow part on A');
      expect(answered.res).toEqual({
        status: 204,
        headers: expect.objectContaining({ 'upload-offset': '100', connection: 'close' }) as unknown,
        body: '',
      });
      const secondAnswer = await withinMs(sent, LOCK_WAIT_MS, 'instance B writes the second part');
      expect(secondAnswer.status).toBe(204);
      expect(secondAnswer.headers['upload-offset']).toBe('150');

      // Both parts, one after the other, as either instance reports.
      for (const t of [a, b]) expect((await tus(t).head(path)).headers['upload-offset']).toBe('150');
      if (storeName === 'filesystem') {
        expect(Buffer.compare(await readFile(spooled), Buffer.concat([first, second]))).toBe(0);
      }
      const last = Buffer.alloc(50, 'c');
      const done = await tus(a).patch(path, 150, last);
      expect(done.status).toBe(200);
      expect(done.body).toEqual(expect.objectContaining({ success: true }));
      const file = await request(b.http)
        .get('/files/FTI-1/two-instances.bin')
        .auth(...USERS.alice)
        .buffer(true)
        .parse(binaryParser);
      expect(file.status).toBe(200);
      expect(Buffer.compare(file.body as Buffer, Buffer.concat([first, second, last]))).toBe(0);
    });
  },
);
