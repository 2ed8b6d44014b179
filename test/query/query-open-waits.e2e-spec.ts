import pg from 'pg';
import { LOCK_WAIT_MS, lockWaiters, withinMs } from '../helpers/bounded-wait.js';
import { expectBusy } from '../helpers/expect-unavailable.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-database.js';
import { createSessionsContext, type SessionsContext } from './sessions-context.js';

/** pg_advisory_xact_lock namespace of "open a query session" (src/query/query.repository.ts). */
const OPEN_LOCK = 74_510;
const BUSY = 'another query session of the same user is being opened; retry shortly';

/**
 * A user's query opens take turns (the per-user advisory lock that keeps two opens from both
 * passing QUERY_MAX_SESSIONS_PER_USER). Waiting for that turn must not hold the database
 * connections everybody else needs, nor last longer than DB_LOCK_TIMEOUT_MS. The interleave is
 * forced: a connection of the test holds ann's open lock, as an open of hers on another instance
 * that takes its time would.
 */
describe('query opens waiting for the same user’s open', () => {
  let c: SessionsContext;
  let small: TestApp;
  let holder: pg.Client;
  let annId: number;

  beforeAll(async () => {
    c = await createSessionsContext();
    small = await createTestApp({ DB_POOL_MAX: '3', DB_CONNECT_TIMEOUT_MS: '2000', DB_LOCK_TIMEOUT_MS: '500' });
    // One listening server: requests running at the same time must not each start and stop their own.
    await small.app.listen(0, '127.0.0.1');
    holder = new pg.Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    const { rows } = await c.pool.query<{ id: number }>('SELECT id FROM users WHERE name = $1', [c.ann[0]]);
    annId = rows[0].id;
  });

  afterAll(async () => {
    await holder.end();
    await small.close();
    await c.close();
  });

  const openSessions = async (): Promise<number> => {
    const { rows } = await c.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM query_sessions WHERE user_id = $1 AND closed_at IS NULL',
      [annId],
    );
    return rows[0].n;
  };

  /** Runs `work` while the test's connection holds ann's open lock; lets it go after, whatever happened. */
  async function holdingAnnsOpenLock<T>(work: () => Promise<T>): Promise<T> {
    await holder.query('SELECT pg_advisory_lock($1::integer, $2::integer)', [OPEN_LOCK, annId]);
    try {
      return await work();
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1::integer, $2::integer)', [OPEN_LOCK, annId]);
    }
  }

  it('answers an open 503 with Retry-After once it waited DB_LOCK_TIMEOUT_MS for the lock, storing nothing', async () => {
    const before = await openSessions();
    const res = await holdingAnnsOpenLock(() =>
      withinMs(
        c.open({ q: c.qMain, limit: 5 }, c.ann, small).then((r) => r),
        LOCK_WAIT_MS,
        'an open waiting for the lock another connection holds is answered',
      ),
    );
    expectBusy(res, BUSY);
    expect(await openSessions()).toBe(before);

    const again = await c.open({ q: c.qMain, limit: 5 }, c.ann, small);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ total: 30, count: 5 });
    expect(await openSessions()).toBe(before + 1);
  });

  it('serves another user beside 20 parallel opens of one user, each of which is answered 503 within the bound', async () => {
    const before = await openSessions();
    const answers = await holdingAnnsOpenLock(async () => {
      const opens = Array.from({ length: 20 }, () => c.open({ q: c.qMain, limit: 5 }, c.ann, small).then((r) => r));
      await lockWaiters(c.pool, 1, 'one of the opens waits for the lock the test holds', {
        pending: opens,
        where: "query LIKE '%pg_advisory_xact_lock%'",
      });
      // Another user opens a session meanwhile: a connection is free for them.
      const other = await withinMs(
        c.open({ q: JSON.stringify({ container: `${c.fx.tag} Side` }), limit: 10 }, c.ben, small).then((r) => r),
        LOCK_WAIT_MS,
        "another user's open beside 20 opens waiting for one user's lock is answered",
      );
      expect(other.status).toBe(200);
      expect(other.body).toMatchObject({ session_id: 0, total: 5, count: 5 });
      return withinMs(Promise.all(opens), LOCK_WAIT_MS, '20 opens waiting for a held lock are answered');
    });
    answers.forEach((res) => expectBusy(res, BUSY));
    expect(await openSessions()).toBe(before);
  });
});
