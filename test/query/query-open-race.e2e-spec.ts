import pg from 'pg';
import type request from 'supertest';
import { LOCK_WAIT_MS, lockWaiters, withinMs } from '../helpers/bounded-wait.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-database.js';
import { createSessionsContext, type SessionsContext } from './sessions-context.js';

/**
 * Two opens at the per-user session cap, forced to interleave: a connection of the test holds
 * query_sessions in SHARE mode, which lets an open count the caller's sessions but not insert
 * its own. Without the per-user advisory lock both opens count below the cap, wait at the
 * insert, and both get a session once the table is let go; with it the second waits before
 * counting, sees the first's session, and is refused. The two opens go to two instances: on one,
 * a user's opens take turns before reaching the database (query-open-waits.e2e-spec.ts).
 */
describe('opening query sessions in parallel at QUERY_MAX_SESSIONS_PER_USER', () => {
  let c: SessionsContext;
  let capped: TestApp;
  let capped2: TestApp;
  let holder: pg.Client;

  beforeAll(async () => {
    c = await createSessionsContext();
    // The opens wait for the test's table lock, not for each other's lock only: well within the bound.
    const env = { QUERY_MAX_SESSIONS_PER_USER: '2', DB_LOCK_TIMEOUT_MS: '20000' };
    capped = await createTestApp(env);
    capped2 = await createTestApp(env);
    holder = new pg.Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
  });

  afterAll(async () => {
    await holder.end();
    await capped.close();
    await capped2.close();
    await c.close();
  });

  it('lets only one of two interleaved opens take the last free session', async () => {
    const open = (app = capped) => c.open({ q: c.qMain, limit: 5 }, c.ann, app);
    const before = await open();
    expect(before.status).toBe(200);
    expect(before.body.session_id).toBeGreaterThan(0);

    await holder.query('BEGIN');
    await holder.query('LOCK TABLE query_sessions IN SHARE MODE');
    const racing: Promise<request.Response>[] = [open().then((r) => r), open(capped2).then((r) => r)];
    await lockWaiters(c.pool, 2, 'both opens wait (at the cap check or at the insert)', {
      pending: racing,
      where: "query LIKE '%pg_advisory_xact_lock%' OR query LIKE '%INSERT INTO query_sessions%'",
    });
    await holder.query('COMMIT');
    const replies = await withinMs(Promise.all(racing), LOCK_WAIT_MS, 'both opens are answered');

    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 429]);
    const refused = replies.find((r) => r.status === 429)!;
    expect(refused.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message:
        'at most 2 query sessions may be open per user: close one (DELETE /query/1.0/query/<session_id>) or let one expire',
      requestId: expect.any(String),
    });
    const granted = replies.find((r) => r.status === 200)!;
    expect(granted.body).toMatchObject({ total: 30, count: 5 });
    const { rows } = await c.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM query_sessions WHERE user_id = (SELECT id FROM users WHERE name = $1) AND closed_at IS NULL',
      [c.ann[0]],
    );
    expect(rows[0].n).toBe(2);
  });
});
