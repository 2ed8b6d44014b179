import { createHash } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { importFilesFixture, itemsOf, oidOf, removeFilesFixture } from '../files/files-fixtures.js';
import { expectUnavailable } from '../helpers/expect-unavailable.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { counterOf, createContainer, generateUrl, type TestContainer } from '../numbers/numbers-fixtures.js';

/**
 * The service's database connection is killed in the middle of a write: a trigger makes the
 * backend that runs the write terminate itself (pg_terminate_backend), which is exactly what a
 * server restart or an operator's pg_terminate_backend does to a connection mid-request.
 */
const PREFIX = 'OUT';

async function killWritesTo(db: pg.Pool, table: string, when: string): Promise<void> {
  await db.query(`
    CREATE OR REPLACE FUNCTION pdm_test_kill_self() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW; END $$`);
  await db.query(
    `CREATE TRIGGER pdm_test_kill BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW WHEN (${when})
     EXECUTE FUNCTION pdm_test_kill_self()`,
  );
}

async function stopKilling(db: pg.Pool, table: string): Promise<void> {
  await db.query(`DROP TRIGGER IF EXISTS pdm_test_kill ON ${table}`);
}

describe('database connections killed mid-request', () => {
  let t: TestApp;
  let db: pg.Pool;
  let container: TestContainer;

  beforeAll(async () => {
    db = testPool();
    await importFilesFixture(PREFIX);
    container = await createContainer(db, {
      name: 'Outage Numbers',
      members: { alice: 'author' },
      rules: [{ cls: 'wt.doc.WTDocument', width: 6, next: 500 }],
    });
    t = await createTestApp({ DB_POOL_MAX: '3' });
  });

  afterAll(async () => {
    await stopKilling(db, 'blob_chunks');
    await stopKilling(db, 'numbering_rules');
    await t.close();
    await removeFilesFixture(db, PREFIX);
    await db.query('DELETE FROM containers WHERE id = $1', [container.id]);
    await db.end();
  });

  it('a file upload answers 503, stores nothing, and succeeds when retried', async () => {
    const bytes = Buffer.from(`outage test ${Date.now()}\n`.repeat(50_000));
    const sha = createHash('sha256').update(bytes).digest('hex');
    const oid = await oidOf(db, 'wt.doc.WTDocument', `${PREFIX}-1`);
    const before = await itemsOf(db, oid);
    await killWritesTo(db, 'blob_chunks', `NEW.sha256 = '${sha}'`);

    const upload = () =>
      request(t.http)
        .post(`/files/${PREFIX}-1/outage.bin`)
        .auth(...USERS.alice)
        .set('Content-Type', 'application/octet-stream')
        .send(bytes);
    expectUnavailable(await upload());
    expect(await itemsOf(db, oid)).toEqual(before);
    const blobs = await db.query('SELECT count(*)::int AS n FROM blob_chunks WHERE sha256 = $1', [sha]);
    expect(blobs.rows[0].n).toBe(0);

    await stopKilling(db, 'blob_chunks');
    const retry = await upload();
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({
      success: true,
      oid: expect.stringMatching(/^OR:wt\.content\.ApplicationData:\d+$/),
    });
    const download = await request(t.http)
      .get(`/files/${PREFIX}-1/outage.bin`)
      .auth(...USERS.alice)
      .buffer(true)
      .parse((res, cb) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => cb(null, Buffer.concat(parts)));
      });
    expect(download.status).toBe(200);
    expect(Buffer.compare(download.body as Buffer, bytes)).toBe(0);
  });

  it('a number generation answers 503, leaves the counter alone, and succeeds when retried', async () => {
    await killWritesTo(db, 'numbering_rules', `NEW.container_id = ${container.id}`);
    const generate = () =>
      request(t.http)
        .post(generateUrl('wt.doc.WTDocument', { 'container-name': 'Outage Numbers', count: 3 }))
        .auth(...USERS.alice);
    expectUnavailable(await generate());
    expect(await counterOf(db, container.id, 'wt.doc.WTDocument')).toBe('500');

    await stopKilling(db, 'numbering_rules');
    const retry = await generate();
    expect(retry.status).toBe(200);
    expect(retry.body.items).toEqual(['000500', '000501', '000502']);
    expect(await counterOf(db, container.id, 'wt.doc.WTDocument')).toBe('503');
  });

  it('keeps answering after the killed connections: every pooled connection is usable again', async () => {
    for (let i = 0; i < 6; i++) {
      const res = await request(t.http)
        .get(`/files/${PREFIX}-1?role=all`)
        .auth(...USERS.bob);
      expect(res.status).toBe(200);
      expect(res.body.count).toBeGreaterThan(0);
    }
  });
});
