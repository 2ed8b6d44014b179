import request from 'supertest';
import { numbers, type SessionsContext, createSessionsContext } from './sessions-context.js';

describe('opening a query session (interface spec 4.4)', () => {
  let c: SessionsContext;
  beforeAll(async () => {
    c = await createSessionsContext();
  });
  afterAll(() => c.close());

  describe('open', () => {
    it('answers session_id 0 with every match when all fit, and keeps nothing', async () => {
      const before = await c.pool.query('SELECT max(id) AS id FROM query_sessions');
      const res = await c.open({ q: c.qMain, limit: 30 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ session_id: 0, total: 30, page: 0, start: 0, limit: 30, count: 30 });
      expect(numbers(res.body)).toEqual(c.mainNumbers);
      expect(res.body.query).toEqual([{ container: `${c.fx.tag} Main`, latest: true }]);
      expect(typeof res.body._runtime).toBe('number');
      const after = await c.pool.query(
        'SELECT count(*)::int AS n FROM query_sessions WHERE user_id = (SELECT id FROM users WHERE name = $1)',
        [c.ann[0]],
      );
      expect(after.rows[0].n).toBe(0);
      expect(before.rows).toHaveLength(1);
    });

    it('describes every item fully', async () => {
      const res = await c.open({ q: c.qMain, limit: 1, start: 0 });
      expect(res.status).toBe(200);
      const row = await c.pool.query(
        `SELECT i.id, c.id AS cid, i.created_at, i.modified_at FROM iterations i JOIN masters m ON m.id = i.master_id
         JOIN containers c ON c.id = m.container_id WHERE m.number = $1`,
        [c.mainNumbers[0]],
      );
      const r = row.rows[0];
      expect(res.body.items).toEqual([
        {
          oid: `OR:wt.doc.WTDocument:${r.id}`,
          type: 'wt.doc.WTDocument',
          subtype: null,
          number: c.mainNumbers[0],
          name: `object ${c.mainNumbers[0]}`,
          version: 'A',
          iteration: 1,
          state: 'INWORK',
          latest: true,
          container: { oid: `OR:wt.pdmlink.PDMLinkProduct:${r.cid}`, name: `${c.fx.tag} Main` },
          createdBy: c.ann[0],
          created: r.created_at.toISOString(),
          modified: r.modified_at.toISOString(),
          url: `https://pdm.example.com/files/OR:wt.doc.WTDocument:${r.id}`,
        },
      ]);
      expect(res.body.session_id).toBeGreaterThan(0);
      await c.del(res.body.session_id, c.ann);
    });

    it('uses the defaults page 0, start 0, limit 25', async () => {
      const res = await c.open({ q: c.qMain });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 30, page: 0, start: 0, limit: 25, count: 25 });
      expect(res.body.session_id).toBeGreaterThan(0);
      expect(numbers(res.body)).toEqual(c.mainNumbers.slice(0, 25));
      await c.del(res.body.session_id, c.ann);
    });

    it('starts the first page at start + page × limit, and keeps a session when the reply does not hold all', async () => {
      const res = await c.open({ q: c.qMain, page: 1, start: 5, limit: 10 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 30, page: 1, start: 5, limit: 10, count: 10 });
      expect(numbers(res.body)).toEqual(c.mainNumbers.slice(15, 25));
      const small = await c.open({ q: JSON.stringify({ container: `${c.fx.tag} Side` }), start: 2, limit: 10 }, c.ben);
      expect(small.status).toBe(200);
      expect(small.body).toMatchObject({ total: 5, count: 3 });
      expect(small.body.session_id).toBeGreaterThan(0);
      await c.del(res.body.session_id, c.ann);
      await c.del(small.body.session_id, c.ben);
    });

    it('answers an empty result with session 0', async () => {
      const res = await c.open({ q: JSON.stringify({ number: `${c.fx.tag}-none*` }) });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ session_id: 0, total: 0, count: 0, items: [] });
      const later = await c.open({ q: JSON.stringify({ number: `${c.fx.tag}-none*` }), page: 3, start: 1 });
      expect(later.status).toBe(200);
      expect(later.body).toMatchObject({ session_id: 0, total: 0, page: 3, start: 1, count: 0, items: [] });
    });

    it('opens with POST and a JSON body, a form body, or URL parameters', async () => {
      const json = await request(c.t.http)
        .post('/query/1.0/query')
        .auth(...c.ann)
        .send({ q: { container: `${c.fx.tag} Main`, number: { lte: c.mainNumbers[2] } }, limit: 2 });
      expect(json.status).toBe(200);
      expect(json.body).toMatchObject({ total: 3, limit: 2, count: 2 });
      expect(numbers(json.body)).toEqual(c.mainNumbers.slice(0, 2));
      const list = await request(c.t.http)
        .post('/query/1.0/query')
        .auth(...c.ann)
        .send({ q: [{ number: c.mainNumbers[0] }, JSON.stringify({ number: c.mainNumbers[1] })] });
      expect(list.status).toBe(200);
      expect(numbers(list.body)).toEqual(c.mainNumbers.slice(0, 2));
      const form = await request(c.t.http)
        .post('/query/1.0/query')
        .auth(...c.ann)
        .type('form')
        .send(`q=${encodeURIComponent(c.qMain)}&limit=3&page=2`);
      expect(form.status).toBe(200);
      expect(form.body).toMatchObject({ total: 30, page: 2, limit: 3, count: 3 });
      expect(numbers(form.body)).toEqual(c.mainNumbers.slice(6, 9));
      const url = await request(c.t.http)
        .post('/query/1.0/query')
        .query({ q: c.qMain, limit: 30 })
        .auth(...c.ann);
      expect(url.status).toBe(200);
      expect(url.body).toMatchObject({ session_id: 0, total: 30 });
      const both = await request(c.t.http)
        .post('/query/1.0/query')
        .query({ limit: 5 })
        .auth(...c.ann)
        .send({ q: c.qMain, limit: 6 });
      expect(both.status).toBe(400);
      expect(both.body.message).toBe('limit is given both in the URL and in the body: give it once');
      for (const id of [json.body.session_id, form.body.session_id]) {
        await c.del(id, c.ann);
      }
    });

    it('ORs several q and lists each object once', async () => {
      const res = await c.open({
        q: [
          JSON.stringify({ number: c.mainNumbers[3] }),
          JSON.stringify({ number: [c.mainNumbers[1], c.mainNumbers[3]] }),
          JSON.stringify({ number: `${c.fx.tag}-S0001` }),
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ session_id: 0, total: 3 });
      expect(numbers(res.body)).toEqual([c.mainNumbers[1], c.mainNumbers[3], `${c.fx.tag}-S0001`]);
      expect(res.body.query).toEqual([
        { number: c.mainNumbers[3], latest: true },
        { number: [c.mainNumbers[1], c.mainNumbers[3]], latest: true },
        { number: `${c.fx.tag}-S0001`, latest: true },
      ]);
    });

    it.each([
      [{ page: '-1' }, 'page must not be less than 0'],
      [{ page: '1.5' }, 'page must be an integer number'],
      [{ page: 'abc' }, 'page must be an integer number'],
      [{ start: '-3' }, 'start must not be less than 0'],
      [{ start: '2x' }, 'start must be an integer number'],
      [{ limit: '0' }, 'limit must not be less than 1'],
      [{ limit: '1001' }, 'limit must not be greater than 1000'],
      [{ page: ['1', '2'] }, 'page must be an integer number'],
      [{ foo: '1' }, 'property foo should not exist'],
    ])('refuses %j with 400', async (params, message) => {
      const res = await c.open({ q: c.qMain, ...params });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(res.body.message).toContain(message);
    });

    it('accepts limit up to QUERY_MAX_LIMIT', async () => {
      const res = await c.open({ q: c.qMain, limit: '1000' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ session_id: 0, limit: 1000, count: 30 });
    });

    it('requires q', async () => {
      const res = await c.open({ limit: 5 });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('q is required: a JSON object such as {"number":"0000*"}');
    });
  });
});
