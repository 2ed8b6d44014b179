import request from 'supertest';
import type pg from 'pg';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { createQueryFixture, type QueryFixture } from './query-fixture.js';

export const pad = (n: number) => String(n).padStart(4, '0');

export const numbers = (body: { items: { number: string }[] }) => body.items.map((i) => i.number);

/** What the session specs share: an app, 30 documents in "Main" (ann author) and 5 in "Side" (ben, ann readers). */
export interface SessionsContext {
  t: TestApp;
  pool: pg.Pool;
  fx: QueryFixture;
  ann: [string, string];
  ben: [string, string];
  /** q of every document in Main */
  qMain: string;
  /** the numbers in Main, in order */
  mainNumbers: string[];
  open(query: Record<string, unknown>, who?: [string, string], app?: TestApp): request.Test;
  fetch(id: number, query?: Record<string, unknown>, who?: [string, string], app?: TestApp): request.Test;
  del(id: number, who?: [string, string], app?: TestApp): request.Test;
  /** The stored row and the number of stored items of a session. */
  stored(id: number): Promise<{ row?: { closed_at: Date | null; close_reason: string | null }; items: number }>;
  close(): Promise<void>;
}

export async function createSessionsContext(): Promise<SessionsContext> {
  const t = await createTestApp({ PUBLIC_URL: 'https://pdm.example.com' });
  const pool = testPool();
  const fx = await createQueryFixture(pool, ['ann', 'ben', 'cat'], {
    Main: { ann: 'author' },
    Side: { ben: 'reader', ann: 'reader' },
  });
  const ann = fx.user('ann');
  const mainNumbers = Array.from({ length: 30 }, (_, i) => `${fx.tag}-M${pad(i + 1)}`);
  // Inserted out of order: replies must still be sorted by number.
  await fx.addObjects(
    'Main',
    [...mainNumbers].reverse().map((number) => ({ number })),
  );
  await fx.addObjects(
    'Side',
    Array.from({ length: 5 }, (_, i) => ({ number: `${fx.tag}-S${pad(i + 1)}` })),
  );
  return {
    t,
    pool,
    fx,
    ann,
    ben: fx.user('ben'),
    qMain: JSON.stringify({ container: `${fx.tag} Main` }),
    mainNumbers,
    open: (query, who = ann, app = t) =>
      request(app.http)
        .get('/query/1.0/query')
        .query(query)
        .auth(...who),
    fetch: (id, query = {}, who = ann, app = t) =>
      request(app.http)
        .get(`/query/1.0/query/${id}`)
        .query(query)
        .auth(...who),
    del: (id, who = ann, app = t) =>
      request(app.http)
        .delete(`/query/1.0/query/${id}`)
        .auth(...who),
    async stored(id) {
      const s = await pool.query('SELECT closed_at, close_reason FROM query_sessions WHERE id = $1', [id]);
      const items = await pool.query<{ n: number }>(
        'SELECT coalesce(sum(cardinality(ids)), 0)::int AS n FROM query_session_chunks WHERE session_id = $1',
        [id],
      );
      return { row: s.rows[0], items: items.rows[0].n };
    },
    async close() {
      await fx.cleanup();
      await pool.end();
      await t.close();
    },
  };
}
