import request from 'supertest';
import type pg from 'pg';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createQueryFixture, type QueryFixture } from './query-fixture.js';

interface Item {
  oid: string;
}

/**
 * A snapshot sorted by number with criteria on masters only is read in index order, master by
 * master (QueryRepository.snapshot); any other is joined and then sorted. Both give the same
 * order: number, then iteration id, also where numbers are equal (a document and a part may
 * share one) and where a master's iterations follow one another out of id order.
 */
describe('the order of query session snapshots', () => {
  let pool: pg.Pool;
  let fx: QueryFixture;
  let ids: Record<string, number>;

  const t = useTestApp();
  beforeAll(async () => {
    pool = testPool();
    fx = await createQueryFixture(pool, ['gus'], { Ties: { gus: 'reader' } });
    const n = (k: string) => `${fx.tag}-N${k}`;
    // Inserted so that master ids and iteration ids disagree: the document N1 is the older
    // master, but its latest iteration is younger than the part N1's.
    const [doc1, part1, doc2, zero, two] = await fx.addObjects('Ties', [
      { number: n('1'), iteration: 1, latest: false },
      { number: n('1'), cls: 'wt.part.WTPart' },
      { number: n('1'), iteration: 2 },
      { number: n('0') },
      { number: n('2'), cls: 'wt.part.WTPart' },
    ]);
    ids = { doc1, part1, doc2, zero, two };
  }, 60_000);

  afterAll(async () => {
    await fx.cleanup();
    await pool.end();
  });

  /** Every item of the query, read in pages of two from its session, as iteration ids. */
  async function order(q: Record<string, unknown>): Promise<number[]> {
    const opened = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: JSON.stringify({ container: `${fx.tag} Ties`, ...q }), limit: 2 })
      .auth(...fx.user('gus'));
    expect(opened.status).toBe(200);
    const { session_id: id, total } = opened.body as { session_id: number; total: number };
    expect(id).toBeGreaterThan(0);
    const items: Item[] = [...(opened.body.items as Item[])];
    for (let page = 1; page * 2 < total; page++) {
      const next = await request(t.http)
        .get(`/query/1.0/query/${id}`)
        .query({ page, limit: 2 })
        .auth(...fx.user('gus'));
      expect(next.status).toBe(200);
      items.push(...(next.body.items as Item[]));
    }
    expect(items).toHaveLength(total);
    return items.map((i) => Number(i.oid.split(':').pop()));
  }

  it('orders by number, then iteration id, reading masters in number order', async () => {
    expect(await order({})).toEqual([ids.zero, ids.part1, ids.doc2, ids.two]);
  });

  it('orders by number descending, iteration ids still ascending', async () => {
    expect(await order({ sort: '-number' })).toEqual([ids.two, ids.part1, ids.doc2, ids.zero]);
  });

  it('orders every iteration of a master by id', async () => {
    expect(await order({ latest: false })).toEqual([ids.zero, ids.doc1, ids.part1, ids.doc2, ids.two]);
  });

  it('gives the same order when the query is joined and then sorted', async () => {
    expect(await order({ state: 'INWORK' })).toEqual([ids.zero, ids.part1, ids.doc2, ids.two]);
    expect(await order({ state: 'INWORK', latest: false, sort: '-number' })).toEqual([
      ids.two,
      ids.doc1,
      ids.part1,
      ids.doc2,
      ids.zero,
    ]);
  });
});
