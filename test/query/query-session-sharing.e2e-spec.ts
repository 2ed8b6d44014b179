import { createTestApp } from '../helpers/test-app.js';
import { createQueryFixture } from './query-fixture.js';
import { createSessionsContext, numbers, pad, type SessionsContext } from './sessions-context.js';

describe('query sessions under change, limits and several instances', () => {
  let c: SessionsContext;
  beforeAll(async () => {
    c = await createSessionsContext();
  });
  afterAll(() => c.close());

  describe('stability', () => {
    it('keeps pages unchanged while objects are inserted, changed and iterated between fetches', async () => {
      const local = await createQueryFixture(c.pool, ['dan'], { Live: { dan: 'author' } });
      const dan = local.user('dan');
      try {
        const live = Array.from({ length: 12 }, (_, i) => `${local.tag}-L${pad(i * 10 + 10)}`);
        await local.addObjects(
          'Live',
          live.map((number) => ({ number })),
        );
        const q = JSON.stringify({ container: `${local.tag} Live` });
        const first = await c.open({ q, limit: 4 }, dan);
        const id = first.body.session_id as number;
        expect(numbers(first.body)).toEqual(live.slice(0, 4));

        // New objects sorting before, between and after the pages already served.
        await local.addObjects('Live', [
          { number: `${local.tag}-L0001` },
          { number: `${local.tag}-L0055` },
          { number: `${local.tag}-L0999` },
        ]);
        const p1 = await c.fetch(id, { page: 1, limit: 4 }, dan);
        expect(p1.body).toMatchObject({ total: 12, count: 4 });
        expect(numbers(p1.body)).toEqual(live.slice(4, 8));

        // A changed object stays at its position; its item shows its current state.
        await c.pool.query(
          `UPDATE iterations SET state = 'RELEASED' WHERE id = (SELECT i.id FROM iterations i
        JOIN masters m ON m.id = i.master_id WHERE m.number = $1)`,
          [live[9]],
        );
        const p2 = await c.fetch(id, { page: 2, limit: 4 }, dan);
        expect(numbers(p2.body)).toEqual(live.slice(8, 12));
        expect(p2.body.items[1].state).toBe('RELEASED');

        // A new iteration of an object already served: the session keeps the snapshotted one.
        const [oldId] = (
          await c.pool.query(
            `SELECT i.id FROM iterations i JOIN masters m ON m.id = i.master_id
        WHERE m.number = $1`,
            [live[0]],
          )
        ).rows.map((r: { id: number }) => r.id);
        await c.pool.query('UPDATE iterations SET latest = false WHERE id = $1', [oldId]);
        await c.pool.query(
          `INSERT INTO iterations (master_id, iteration, latest, created_by, modified_by)
        SELECT master_id, 2, true, created_by, modified_by FROM iterations WHERE id = $1`,
          [oldId],
        );
        const p0 = await c.fetch(id, { page: 0, limit: 4 }, dan);
        expect(numbers(p0.body)).toEqual(live.slice(0, 4));
        expect(p0.body.items[0]).toMatchObject({ oid: `OR:wt.doc.WTDocument:${oldId}`, iteration: 1, latest: false });

        const all: string[] = [];
        for (let page = 0; page < 3; page++) all.push(...numbers((await c.fetch(id, { page, limit: 4 }, dan)).body));
        expect(all).toEqual(live);
        expect(new Set(all).size).toBe(12);

        const fresh = await c.open({ q, limit: 100 }, dan);
        expect(fresh.body.total).toBe(15);
        await c.del(id, dan);
      } finally {
        await local.cleanup();
      }
    });
  });

  describe('per-user cap', () => {
    it('refuses a session past QUERY_MAX_SESSIONS_PER_USER with 429 and leaves the others alone', async () => {
      const capped = await createTestApp({ QUERY_MAX_SESSIONS_PER_USER: '2' });
      const cat = c.fx.user('cat');
      await c.pool.query(
        `INSERT INTO memberships (container_id, user_id, role) SELECT $1, id, 'reader' FROM users WHERE name = $2`,
        [c.fx.containerId('Side'), cat[0]],
      );
      const q = JSON.stringify({ container: `${c.fx.tag} Side` });
      try {
        const a = await c.open({ q, limit: 2 }, cat, capped);
        const b = await c.open({ q, limit: 2 }, cat, capped);
        expect([a.status, b.status]).toEqual([200, 200]);
        const third = await c.open({ q, limit: 2 }, cat, capped);
        expect(third.status).toBe(429);
        expect(third.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
        expect(third.body.message).toBe(
          'at most 2 query sessions may be open per user: close one (DELETE /query/1.0/query/<session_id>) or let one expire',
        );
        // A reply that holds everything needs no session and is still answered.
        const fits = await c.open({ q, limit: 5 }, cat, capped);
        expect(fits.status).toBe(200);
        expect(fits.body).toMatchObject({ session_id: 0, total: 5 });
        // Other users are not affected.
        expect((await c.open({ q, limit: 2 }, c.ben, capped)).status).toBe(200);
        expect((await c.fetch(a.body.session_id, { page: 1, limit: 2 }, cat, capped)).status).toBe(200);
        expect((await c.del(a.body.session_id, cat, capped)).status).toBe(200);
        const d = await c.open({ q, limit: 2 }, cat, capped);
        expect(d.status).toBe(200);
        expect(d.body.session_id).toBeGreaterThan(b.body.session_id);
      } finally {
        await capped.close();
      }
    });
  });

  describe('several instances', () => {
    it('lets a second instance on the same database page and close a session the first opened', async () => {
      const other = await createTestApp({ PUBLIC_URL: 'https://pdm.example.com' });
      try {
        const first = await c.open({ q: c.qMain, limit: 10 }, c.ann, c.t);
        const id = first.body.session_id as number;
        const p1 = await c.fetch(id, { page: 1, limit: 10 }, c.ann, other);
        expect(p1.status).toBe(200);
        expect(numbers(p1.body)).toEqual(c.mainNumbers.slice(10, 20));
        expect((await c.fetch(id, { page: 1, limit: 10 }, c.ann, c.t)).body).toEqual({
          ...p1.body,
          _runtime: expect.any(Number),
        });
        const p2 = await c.fetch(id, { page: 2, limit: 10, close: 1 }, c.ann, other);
        expect(numbers(p2.body)).toEqual(c.mainNumbers.slice(20, 30));
        const gone = await c.fetch(id, {}, c.ann, c.t);
        expect(gone.status).toBe(410);
      } finally {
        await other.close();
      }
    });
  });
});
