import request from 'supertest';
import type pg from 'pg';
import { QueryService } from '../../src/query/query.service.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createQueryFixture, type QueryFixture } from './query-fixture.js';
import { numbers, pad } from './sessions-context.js';

/** Snapshots hold 1000 ids per row: pages that start, end or straddle a row boundary. */
describe('query sessions over more than one snapshot chunk', () => {
  let pool: pg.Pool;
  let fx: QueryFixture;
  let expected: string[];
  let id: number;

  const t = useTestApp();
  beforeAll(async () => {
    pool = testPool();
    fx = await createQueryFixture(pool, ['dora', 'eve'], { Big: { dora: 'reader', eve: 'reader' } });
    expected = Array.from({ length: 2050 }, (_, i) => `${fx.tag}-B${pad(i + 1)}`);
    await fx.addObjects(
      'Big',
      [...expected].reverse().map((number) => ({ number })),
    );
    const opened = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: JSON.stringify({ container: `${fx.tag} Big` }), limit: 25 })
      .auth(...fx.user('dora'));
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ total: 2050, count: 25 });
    expect(numbers(opened.body)).toEqual(expected.slice(0, 25));
    id = opened.body.session_id as number;
  }, 120_000);

  afterAll(async () => {
    await fx.cleanup();
    await pool.end();
  });

  const fetch = (query: Record<string, unknown>) =>
    request(t.http)
      .get(`/query/1.0/query/${id}`)
      .query(query)
      .auth(...fx.user('dora'));

  it.each([
    ['straddling the first boundary', 990, 25],
    ['ending on a boundary', 975, 25],
    ['starting on a boundary', 1000, 25],
    ['straddling the second boundary', 1995, 10],
    ['the end of the last chunk', 2040, 25],
  ])('reads a page %s (start %d, limit %d)', async (_what, start, limit) => {
    const res = await fetch({ start, limit });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ session_id: id, total: 2050, start });
    expect(numbers(res.body)).toEqual(expected.slice(start, start + limit));
  });

  it('stores every match once, in three rows', async () => {
    const rows = await pool.query<{ chunk: number; n: number }>(
      'SELECT chunk, cardinality(ids) AS n FROM query_session_chunks WHERE session_id = $1 ORDER BY chunk',
      [id],
    );
    expect(rows.rows).toEqual([
      { chunk: 0, n: 1000 },
      { chunk: 1, n: 1000 },
      { chunk: 2, n: 50 },
    ]);
  });

  it('drops the snapshot of a session whose user was deleted at the next sweep', async () => {
    const opened = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: JSON.stringify({ container: `${fx.tag} Big` }), limit: 25 })
      .auth(...fx.user('eve'));
    expect(opened.status).toBe(200);
    const session = opened.body.session_id as number;
    const chunks = () =>
      pool.query<{ n: number }>('SELECT count(*)::int AS n FROM query_session_chunks WHERE session_id = $1', [session]);
    expect((await chunks()).rows).toEqual([{ n: 3 }]);
    await pool.query('DELETE FROM users WHERE name = $1', [`${fx.tag}-eve`]);
    await t.app.get(QueryService).sweep();
    expect((await chunks()).rows).toEqual([{ n: 0 }]);
    // Other sessions keep theirs.
    const kept = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM query_session_chunks WHERE session_id = $1',
      [id],
    );
    expect(kept.rows).toEqual([{ n: 3 }]);
  });
});
