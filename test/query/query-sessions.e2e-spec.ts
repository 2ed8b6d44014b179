import request from 'supertest';
import { QueryService } from '../../src/query/query.service.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { createTestApp, USERS } from '../helpers/test-app.js';
import { createSessionsContext, numbers, pad, type SessionsContext } from './sessions-context.js';

describe('query session states (interface spec 3)', () => {
  let c: SessionsContext;
  beforeAll(async () => {
    c = await createSessionsContext();
  });
  afterAll(() => c.close());

  describe('open → fetch → close', () => {
    it('pages an open session, repeats a page identically, and closes with close=1', async () => {
      const first = await c.open({ q: c.qMain, limit: 10 });
      expect(first.status).toBe(200);
      const id = first.body.session_id as number;
      expect(id).toBeGreaterThan(0);
      expect(numbers(first.body)).toEqual(c.mainNumbers.slice(0, 10));
      expect(await c.stored(id)).toEqual({ row: { closed_at: null, close_reason: null }, items: 30 });

      const p1 = await c.fetch(id, { page: 1, limit: 10 });
      expect(p1.status).toBe(200);
      expect(p1.body).toMatchObject({ session_id: id, total: 30, page: 1, start: 0, limit: 10, count: 10 });
      expect(p1.body.query).toEqual([{ container: `${c.fx.tag} Main`, latest: true }]);
      expect(numbers(p1.body)).toEqual(c.mainNumbers.slice(10, 20));
      const again = await c.fetch(id, { page: 1, limit: 10 });
      expect(again.body.items).toEqual(p1.body.items);

      const defaults = await c.fetch(id);
      expect(defaults.status).toBe(200);
      expect(defaults.body).toMatchObject({ page: 0, start: 0, limit: 25, count: 25 });

      const offset = await c.fetch(id, { start: 28, limit: 5 });
      expect(numbers(offset.body)).toEqual(c.mainNumbers.slice(28));
      const past = await c.fetch(id, { page: 99, limit: 10 });
      expect(past.status).toBe(200);
      expect(past.body).toMatchObject({ total: 30, count: 0, items: [] });
      const huge = await c.fetch(id, { page: '9007199254740991', limit: 10 });
      expect(huge.status).toBe(200);
      expect(huge.body).toMatchObject({ count: 0, items: [] });

      const last = await c.fetch(id, { page: 2, limit: 10, close: 1 });
      expect(last.status).toBe(200);
      expect(numbers(last.body)).toEqual(c.mainNumbers.slice(20, 30));
      const stored = await c.stored(id);
      expect(stored.row?.close_reason).toBe('closed');
      expect(stored.row?.closed_at).toBeInstanceOf(Date);
      expect(stored.items).toBe(0);

      const gone = await c.fetch(id, { page: 0 });
      expect(gone.status).toBe(410);
      expect(gone.body).toMatchObject({ statusCode: 410, error: 'Gone', message: `query session ${id} is closed` });
    });

    it('keeps a session open with close=0', async () => {
      const first = await c.open({ q: c.qMain, limit: 10 });
      const id = first.body.session_id as number;
      const p = await c.fetch(id, { page: 1, limit: 10, close: 0 });
      expect(p.status).toBe(200);
      expect((await c.fetch(id, { page: 2, limit: 10 })).status).toBe(200);
      await c.del(id, c.ann);
    });

    it('closes with DELETE, after which fetch and DELETE answer 410', async () => {
      const first = await c.open({ q: c.qMain, limit: 10 });
      const id = first.body.session_id as number;
      const del = await c.del(id, c.ann);
      expect(del.status).toBe(200);
      expect(del.body).toEqual({ success: true, session_id: id, session: id });
      expect((await c.stored(id)).items).toBe(0);
      const gone = await c.fetch(id);
      expect(gone.status).toBe(410);
      expect(gone.body.message).toBe(`query session ${id} is closed`);
      const twice = await c.del(id, c.ann);
      expect(twice.status).toBe(410);
      expect(twice.body.message).toBe(`query session ${id} is closed`);
    });

    it.each([
      [{ close: '2' }, 'close must be 0 or 1'],
      [{ page: '-1' }, 'page must not be less than 0'],
      [{ limit: '1001' }, 'limit must not be greater than 1000'],
      [{ start: 'x' }, 'start must be an integer number'],
      [{ q: '{}' }, 'property q should not exist'],
    ])('refuses fetch parameters %j with 400', async (params, message) => {
      const first = await c.open({ q: c.qMain, limit: 10 });
      const res = await c.fetch(first.body.session_id, params);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
      await c.del(first.body.session_id, c.ann);
    });

    it('refuses session_id 0 and non-integers with 400, unknown ids with 404', async () => {
      const zero = await c.fetch(0);
      expect(zero.status).toBe(400);
      expect(zero.body.message).toBe('session_id 0 is not a session: it means the whole result fit into one reply');
      const zeroDel = await request(c.t.http)
        .delete('/query/1.0/query/0')
        .auth(...c.ann);
      expect(zeroDel.status).toBe(400);
      const text = await request(c.t.http)
        .get('/query/1.0/query/abc')
        .auth(...c.ann);
      expect(text.status).toBe(400);
      expect(text.body.message).toBe('session_id must be a positive integer, not "abc"');
      const negative = await request(c.t.http)
        .get('/query/1.0/query/-4')
        .auth(...c.ann);
      expect(negative.status).toBe(400);
      const unknown = await c.fetch(999_999_999);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ statusCode: 404, message: 'no query session 999999999' });
      const unknownDel = await request(c.t.http)
        .delete('/query/1.0/query/999999999')
        .auth(...c.ann);
      expect(unknownDel.status).toBe(404);
    });

    it("answers someone else's session 404, even for an admin", async () => {
      const first = await c.open({ q: c.qMain, limit: 10 });
      const id = first.body.session_id as number;
      for (const who of [c.ben, [...USERS.admin] as [string, string]]) {
        const res = await c.fetch(id, {}, who);
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(`no query session ${id}`);
        const del = await c.del(id, who);
        expect(del.status).toBe(404);
      }
      expect((await c.fetch(id)).status).toBe(200);
      await c.del(id, c.ann);
    });
  });

  describe('expiry', () => {
    it('answers a session idle past QUERY_SESSION_TTL_MS 410, and the sweep deletes items', async () => {
      // Time passes on the clock the sessions are measured against, not in waiting.
      const clock = new FakeClock();
      const short = await createTestApp({ QUERY_SESSION_TTL_MS: '2000' }, { clock });
      try {
        const a = await c.open({ q: c.qMain, limit: 10 }, c.ann, short);
        const b = await c.open({ q: c.qMain, limit: 10 }, c.ann, short);
        expect(a.status).toBe(200);
        // Being used keeps a session alive past the TTL counted from open.
        clock.advance(1200);
        expect((await c.fetch(a.body.session_id, { page: 1, limit: 10 }, c.ann, short)).status).toBe(200);
        clock.advance(1200);
        expect((await c.fetch(a.body.session_id, { page: 2, limit: 10 }, c.ann, short)).status).toBe(200);
        clock.advance(2600);

        const expired = await c.fetch(a.body.session_id, {}, c.ann, short);
        expect(expired.status).toBe(410);
        expect(expired.body.message).toBe(`query session ${a.body.session_id} has expired (idle longer than 2 s)`);
        expect(await c.stored(a.body.session_id)).toEqual({
          row: { closed_at: expect.any(Date), close_reason: 'expired' },
          items: 0,
        });

        // The periodic sweep may have come first: either way b is expired and emptied now.
        await short.app.get(QueryService).sweep();
        expect(await c.stored(b.body.session_id)).toEqual({
          row: { closed_at: expect.any(Date), close_reason: 'expired' },
          items: 0,
        });
        const del = await c.del(b.body.session_id, c.ann, short);
        expect(del.status).toBe(410);
        expect(del.body.message).toContain('has expired');
      } finally {
        await short.close();
      }
    });
  });

  describe('permissions', () => {
    it('counts and returns only objects in containers the caller may read', async () => {
      const prefix = JSON.stringify({ number: `${c.fx.tag}-*` });
      const annRes = await c.open({ q: prefix, limit: 100 }, c.ann);
      expect(annRes.body).toMatchObject({ session_id: 0, total: 35 });
      const benRes = await c.open({ q: prefix, limit: 100 }, c.ben);
      expect(benRes.status).toBe(200);
      expect(benRes.body).toMatchObject({ session_id: 0, total: 5 });
      expect(numbers(benRes.body)).toEqual(Array.from({ length: 5 }, (_, i) => `${c.fx.tag}-S${pad(i + 1)}`));
      const hidden = await c.open({ q: c.qMain }, c.ben);
      expect(hidden.body).toMatchObject({ session_id: 0, total: 0, items: [] });
      const cat = await c.open({ q: prefix }, c.fx.user('cat'));
      expect(cat.body).toMatchObject({ total: 0 });
      const admin = await c.open({ q: prefix, limit: 100 }, [...USERS.admin] as [string, string]);
      expect(admin.body).toMatchObject({ total: 35 });
    });

    it('counts, returns and pages only what a group (nested or not) lets the caller read, as of each request', async () => {
      const prefix = JSON.stringify({ number: `${c.fx.tag}-*` });
      const cat = c.fx.user('cat');
      const made = await c.pool.query<{ id: number }>('INSERT INTO groups (name) VALUES ($1), ($2) RETURNING id', [
        `${c.fx.tag} readers`,
        `${c.fx.tag} nested`,
      ]);
      const [readers, nested] = made.rows.map((r) => r.id);
      try {
        await c.pool.query('INSERT INTO group_groups (group_id, member_group_id) VALUES ($1, $2)', [readers, nested]);
        await c.pool.query('INSERT INTO group_users (group_id, user_id) SELECT $1, id FROM users WHERE name = $2', [
          nested,
          cat[0],
        ]);
        await c.pool.query("INSERT INTO group_memberships (container_id, group_id, role) VALUES ($1, $2, 'reader')", [
          c.fx.containerId('Side'),
          readers,
        ]);
        const side = await c.open({ q: prefix, limit: 100 }, cat);
        expect(side.status).toBe(200);
        expect(side.body).toMatchObject({ session_id: 0, total: 5 });
        expect(numbers(side.body)).toEqual(Array.from({ length: 5 }, (_, i) => `${c.fx.tag}-S${pad(i + 1)}`));
        expect((await c.open({ q: c.qMain }, cat)).body).toMatchObject({ session_id: 0, total: 0, items: [] });

        await c.pool.query("INSERT INTO group_memberships (container_id, group_id, role) VALUES ($1, $2, 'reader')", [
          c.fx.containerId('Main'),
          nested,
        ]);
        const both = await c.open({ q: prefix, limit: 10 }, cat);
        expect(both.status).toBe(200);
        expect(both.body).toMatchObject({ total: 35, count: 10 });
        const id = both.body.session_id as number;
        expect(id).toBeGreaterThan(0);
        const p1 = await c.fetch(id, { page: 1, limit: 10 }, cat);
        expect(p1.body).toMatchObject({ session_id: id, count: 10 });

        // Out of the nested group: the next page of the same session shows nothing.
        await c.pool.query('DELETE FROM group_users WHERE group_id = $1', [nested]);
        const after = await c.fetch(id, { page: 1, limit: 10 }, cat);
        expect(after.status).toBe(200);
        expect(after.body).toMatchObject({ session_id: id, count: 0, items: [] });
        expect((await c.open({ q: prefix }, cat)).body).toMatchObject({ session_id: 0, total: 0, items: [] });
      } finally {
        await c.pool.query('DELETE FROM groups WHERE id = ANY($1)', [[readers, nested]]);
      }
    });

    it('needs credentials', async () => {
      const res = await request(c.t.http).get('/query/1.0/query').query({ q: c.qMain });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    });
  });
});
