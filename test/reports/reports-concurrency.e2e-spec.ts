import request from 'supertest';
import type pg from 'pg';
import { USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { expectError } from '../security/security-helpers.js';
import { docQuery, NUMBER, until } from './report-fixtures.js';

/** A report over report_templates: it waits while the test holds that table locked. */
const TEMPLATES = `<qml><statement><query><select><column alias="T" heading="Name">name</column></select>
<from><table alias="T">wt.query.template.ReportTemplate</table></from></query></statement></qml>`;

const LIMITED =
  'you already run 1 report(s), as many as one user may run at the same time (REPORT_MAX_CONCURRENT_PER_USER); retry when one has finished';

const inline = (t: TestApp, user: readonly [string, string], qml: string) =>
  request(t.http)
    .post('/reports')
    .auth(...user)
    .set('Content-Type', 'text/xml')
    .send(qml);

describe('REPORT_MAX_CONCURRENT_PER_USER', () => {
  /** Advisory locks held for report slots of a user (first key 74 600 000 + k, second the user id). */
  const slotsHeld = async (name: string): Promise<number> => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN users u ON u.id = l.objid::int
       WHERE l.locktype = 'advisory' AND l.objsubid = 2 AND l.classid::int8 BETWEEN 74600001 AND 74601000 AND u.name = $1`,
      [name],
    );
    return rows[0].n;
  };

  // Two instances of the service on one database, each with a limit of one report per user.
  let db: pg.Pool;
  const a = useTestApp({ REPORT_MAX_CONCURRENT_PER_USER: '1' });
  const b = useTestApp({ REPORT_MAX_CONCURRENT_PER_USER: '1' });
  const unlimited = useTestApp({ REPORT_MAX_CONCURRENT_PER_USER: '0' });
  beforeAll(async () => {
    db = testPool();
  });
  afterAll(async () => {
    await db.end();
  });

  it('refuses a second report of a user with 429 while the first runs, on any instance; others run', async () => {
    const locker = await db.connect();
    let first: Promise<request.Response> | undefined;
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE report_templates IN ACCESS EXCLUSIVE MODE');
      // Alice's report takes her slot, then waits for the table.
      first = inline(a, USERS.alice, TEMPLATES).then((r) => r);
      await until('the first report holds its slot and waits for the table', async () => {
        if ((await slotsHeld('alice')) !== 1) return false;
        const { rows } = await db.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%"report_templates"%'`,
        );
        return rows.length > 0;
      });

      for (const t of [a, b]) {
        const second = await inline(t, USERS.alice, docQuery(NUMBER));
        expectError(second, 429, LIMITED);
        expect(second.headers['retry-after']).toBe('1');
      }
      // An instance started with 0 takes no slots: no limit.
      const free = await inline(unlimited, USERS.alice, docQuery(NUMBER));
      expect(free.status).toBe(200);
      expect(free.body.count).toBeGreaterThan(0);
      const other = await inline(a, USERS.bob, docQuery(NUMBER));
      expect(other.status).toBe(200);
      expect(other.body).toMatchObject({ count: expect.any(Number), items: expect.any(Array) });
      expect(other.body.count).toBeGreaterThan(0);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    const done = await first!;
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ count: expect.any(Number), items: expect.arrayContaining([['Released parts']]) });

    // Her slot is free again, on both instances.
    expect(await slotsHeld('alice')).toBe(0);
    for (const t of [a, b]) {
      const again = await inline(t, USERS.alice, docQuery(NUMBER));
      expect(again.status).toBe(200);
      expect(again.body.count).toBeGreaterThan(0);
    }
  });

  it('gives the slot back when a report fails', async () => {
    // PostgreSQL refuses a text read as a year while running it: after the slot was taken.
    const bad = await inline(
      a,
      USERS.alice,
      docQuery('<function name="TO_DATE" heading="x"><constant>never</constant><constant>YYYY</constant></function>'),
    );
    expectError(bad, 400, 'the report query failed on its values: invalid value "neve" for "YYYY"');
    // Given back before the answer (her next report must find it free), and no lock of hers
    // stays with a connection back in the pool.
    expect(await slotsHeld('alice')).toBe(0);
    const after = await inline(a, USERS.alice, docQuery(NUMBER));
    expect(after.status).toBe(200);
  });
});
