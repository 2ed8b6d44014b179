import pg from 'pg';
import request from 'supertest';
import { LOCK_WAIT_MS, pollUntil, withinMs } from '../helpers/bounded-wait.js';
import { expectBusy } from '../helpers/expect-unavailable.js';
import { USERS } from '../helpers/test-app.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createCadFixture } from './cad-fixtures.js';

/**
 * Changes of one CAD document wait for each other (the master's row lock). Those waits must not
 * hold the database connections everybody else needs: on one instance they wait in turn without
 * a connection, and no change waits longer than DB_LOCK_TIMEOUT_MS for another (503, Retry-After).
 */
describe('changes waiting for one CAD document', () => {
  let db: pg.Pool;
  const t = useTestApp({ DB_POOL_MAX: '3', DB_CONNECT_TIMEOUT_MS: '2000', DB_LOCK_TIMEOUT_MS: '500' });
  beforeAll(async () => {
    // One listening server: requests running at the same time must not each start and stop their own.
    await t.app.listen(0, '127.0.0.1');
    db = testPool();
  });
  afterAll(async () => {
    await db.query("DELETE FROM masters WHERE number LIKE 'cadlock%'");
    await db.query("DELETE FROM containers WHERE name LIKE 'cadlock%'");
    await db.end();
  });

  const lineNumbers = async (prefix: string): Promise<(number | null)[]> => {
    const { rows } = await db.query<{ line: number | null }>(
      `SELECT ul.line_number::int AS line FROM usage_links ul JOIN iterations i ON i.id = ul.parent_id
       JOIN masters m ON m.id = i.master_id WHERE m.number = $1 AND i.latest ORDER BY ul.line_number`,
      [`${prefix}-ASM`],
    );
    return rows.map((r) => r.line);
  };

  /** The i-th change of the assembly: a numbering of its links, or a merge of its attributes. */
  const change = (p: string, i: number): Promise<request.Response> =>
    (i % 2
      ? request(t.http)
          .post(`/numbers/used/${p}-ASM?mode=all&start=${i}`)
          .auth(...USERS.alice)
      : request(t.http)
          .post(`/numbers/attributes/${p}-ASM`)
          .auth(...USERS.alice)
          .send({ attributes: { material: `steel-${i}` } })
    ).then((r) => r);

  it('answers 503 with Retry-After once the row stays locked past DB_LOCK_TIMEOUT_MS, while others read on', async () => {
    const p = 'cadlock1';
    await createCadFixture(db, p, { alice: 'author', bob: 'reader' });
    const holder = new pg.Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM masters WHERE number = $1 FOR NO KEY UPDATE', [`${p}-ASM`]);
      const writers = [0, 1, 2, 3].map((i) => change(p, i));
      await pollUntil(async () => {
        const { rows } = await db.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND $1 = ANY(pg_blocking_pids(pid))`,
          [(await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid],
        );
        return rows.length > 0;
      }, 'a change waits for the locked row');
      // Another user reads another object meanwhile: a connection is free for it.
      const read = await withinMs(
        request(t.http)
          .get(`/objects/${p}-DOC`)
          .auth(...USERS.bob)
          .then((r) => r),
        LOCK_WAIT_MS,
        'a read beside changes waiting for a locked row',
      );
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ number: `${p}-DOC` });
      // The row is still locked: every change gives up after DB_LOCK_TIMEOUT_MS.
      const answers = await withinMs(Promise.all(writers), LOCK_WAIT_MS, 'changes waiting for a locked row');
      answers.forEach((res) => expectBusy(res));
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect(await lineNumbers(p)).toEqual([null, null, null]);
    const retry = await request(t.http)
      .post(`/numbers/used/${p}-ASM`)
      .auth(...USERS.alice);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ number: `${p}-ASM`, numbered: 3 });
    expect(await lineNumbers(p)).toEqual([10, 20, 30]);
  });

  it('serves a read beside 20 parallel changes of one CAD document, each answered 200 or 503', async () => {
    const p = 'cadlock2';
    await createCadFixture(db, p, { alice: 'author', bob: 'reader' });
    const writers = Array.from({ length: 20 }, (_, i) => change(p, i));
    const read = await withinMs(
      request(t.http)
        .get(`/objects/${p}-DOC`)
        .auth(...USERS.bob)
        .then((r) => r),
      LOCK_WAIT_MS,
      'a read beside 20 changes of one object',
    );
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ number: `${p}-DOC` });
    const answers = await withinMs(Promise.all(writers), 20_000, '20 parallel changes of one object');
    for (const res of answers) {
      if (res.status === 503) expectBusy(res);
      else expect(res.status).toBe(200);
    }
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    const lines = await lineNumbers(p);
    expect(new Set(lines).size).toBe(3);
  });
});
