import type pg from 'pg';
import request from 'supertest';
import { hashPassword } from '../../src/auth/password.js';
import type { TestApp } from '../helpers/test-app.js';
import { embeddedTestRun, testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { expectError } from '../security/security-helpers.js';
import { docQuery, NUMBER, until } from './report-fixtures.js';

/** A report over report_templates: it runs (holding its connection) while the test holds that table locked. */
const HEAVY = `<qml><statement><query><select><column alias="T" heading="Name">name</column></select>
<from><table alias="T">wt.query.template.ReportTemplate</table></from></query></statement></qml>`;

const PASSWORD = 'fair-share-pw';
const OVER_SHARE =
  'the report pool of this instance is busy: you already run 2 report(s) here, and its last 2 connections ' +
  'are kept for users running none (REPORT_POOL_RESERVED); retry when one has finished';

/** The answer, or a failure naming what was not answered within 5 s (instead of a hang). */
function answered(what: string, pending: PromiseLike<request.Response>): Promise<request.Response> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} was not answered within 5 s`)), 5_000);
  });
  return Promise.race([Promise.resolve(pending), late]).finally(() => clearTimeout(timer));
}

const inline = (t: TestApp, name: string, qml: string) =>
  request(t.http).post('/reports').auth(name, PASSWORD).set('Content-Type', 'text/xml').send(qml);

/**
 * Several accounts each running as many heavy reports as one user may (REPORT_MAX_CONCURRENT_PER_USER,
 * 3) must not take every connection of an instance's report pool (DB_POOL_MAX, 10): a user's second
 * and further reports are refused (429) once only REPORT_POOL_RESERVED connections are left (by
 * default a quarter of the pool, 2), which users running none still find free.
 */
// The embedded database has a pool of one connection, where reports queue anyway.
(embeddedTestRun() ? describe.skip : describe)('reports of other users while four run three heavy ones each', () => {
  const tag = `fair${process.pid}`;
  const heavy = [1, 2, 3, 4].map((i) => `${tag}-heavy-${i}`);
  const light = `${tag}-light`;
  let db: pg.Pool;
  // A short connect wait: without a share kept, the light report would fail (503) after it, not hang.
  const t = useTestApp({ DB_CONNECT_TIMEOUT_MS: '1000' });

  beforeAll(async () => {
    db = testPool();
    const hash = await hashPassword(PASSWORD);
    for (const name of [...heavy, light]) {
      const { rows } = await db.query<{ id: number }>(
        'INSERT INTO users (name, password_hash) VALUES ($1, $2) RETURNING id',
        [name, hash],
      );
      // Readers where bob reads, so their reports see the demo documents.
      await db.query(
        `INSERT INTO memberships (container_id, user_id, role)
         SELECT m.container_id, $1, 'reader' FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.name = 'bob'`,
        [rows[0].id],
      );
    }
  });
  afterAll(async () => {
    const names = [...heavy, light];
    await db.query('DELETE FROM memberships WHERE user_id IN (SELECT id FROM users WHERE name = ANY($1))', [names]);
    await db.query('DELETE FROM users WHERE name = ANY($1)', [names]);
    await db.end();
  });

  /** Reports waiting for the locked table, each on a connection of the report pool. */
  const waiting = async (): Promise<number> => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%"report_templates"%'`,
    );
    return rows[0].n;
  };

  it("lets another user's light report run, and refuses the heavy users' reports past their share with 429", async () => {
    const locker = await db.connect();
    const running: Promise<request.Response>[] = [];
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE report_templates IN ACCESS EXCLUSIVE MODE');
      // Each heavy user's first report, then each one's second: all run (8 of the 10 connections).
      for (const round of [1, 2]) {
        for (const name of heavy) running.push(inline(t, name, HEAVY).then((r) => r));
        await until(
          `the heavy reports of round ${round} wait for the table`,
          async () => (await waiting()) === 4 * round,
        );
      }
      // Third reports: only 2 connections are left, kept for users running no report.
      const third = await Promise.all(
        heavy.map((name) => {
          const sent = inline(t, name, HEAVY).then((r) => r);
          running.push(sent);
          return answered(`the third report of ${name}`, sent);
        }),
      );
      for (const res of third) {
        expectError(res, 429, OVER_SHARE);
        expect(res.headers['retry-after']).toBe('1');
      }
      const other = await answered("the other user's report", inline(t, light, docQuery(NUMBER)));
      expect(other.status).toBe(200);
      expect(other.body).toMatchObject({ count: expect.any(Number), items: expect.any(Array) });
      expect(other.body.count).toBeGreaterThan(0);
      expect(await waiting()).toBe(8);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    const done = await Promise.all(running);
    expect(done.map((r) => r.status)).toEqual([...Array(8).fill(200), 429, 429, 429, 429]);
    // Their reports have ended: a heavy user runs a third one again.
    const again = await inline(t, heavy[0], docQuery(NUMBER));
    expect(again.status).toBe(200);
  });
});
