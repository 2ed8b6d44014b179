import { GoneException, HttpException, NotFoundException } from '@nestjs/common';
import type { AuthUser } from '../../src/auth/auth-user.js';
import { PermissionsRepository } from '../../src/auth/permissions.repository.js';
import { Clock } from '../../src/common/clock.js';
import { PermissionsService } from '../../src/auth/permissions.service.js';
import { QueryRepository } from '../../src/query/query.repository.js';
import { QueryService } from '../../src/query/query.service.js';
import { createQueryFixture, type QueryFixture } from '../query/query-fixture.js';
import { useServices } from './medium-database.js';

const BASE = 'http://pdm.test';
const firstPage = { page: 0, start: 0, limit: 2 };

describe('QueryService sessions: paging, expiry and the sweep', () => {
  const s = useServices(
    { providers: [QueryService, QueryRepository, PermissionsService, PermissionsRepository, Clock] },
    // A long TTL: the periodic sweep (once a minute) never runs during the tests; they expire
    // sessions by moving last_used_at back.
    { QUERY_SESSION_TTL_MS: '600000', QUERY_MAX_SESSIONS_PER_USER: '2' },
  );
  let query: QueryService;
  let fx: QueryFixture;
  let gus: AuthUser;
  let numbers: string[];

  const open = () => query.open(gus, [{ container: `${fx.tag} Main` }], firstPage, BASE);
  const idleSince = (sessionId: number, minutes: number) =>
    s.pool.query(`UPDATE query_sessions SET last_used_at = now() - make_interval(mins => $2) WHERE id = $1`, [
      sessionId,
      minutes,
    ]);
  const chunks = async (sessionId: number) =>
    (await s.pool.query('SELECT 1 FROM query_session_chunks WHERE session_id = $1', [sessionId])).rowCount;
  const state = async (sessionId: number) =>
    (
      await s.pool.query<{ close_reason: string | null }>('SELECT close_reason FROM query_sessions WHERE id = $1', [
        sessionId,
      ])
    ).rows[0];

  beforeAll(async () => {
    query = s.get(QueryService);
    fx = await createQueryFixture(s.pool, ['gus'], { Main: { gus: 'reader' } });
    numbers = [1, 2, 3, 4, 5].map((i) => `${fx.tag}-N${i}`);
    await fx.addObjects('Main', numbers.map((number) => ({ number })).reverse());
    const { rows } = await s.pool.query<{ id: number }>('SELECT id FROM users WHERE name = $1', [fx.user('gus')[0]]);
    gus = { id: rows[0].id, name: fx.user('gus')[0], admin: false, fullName: null, email: null };
  });

  // Each test starts with no sessions of the user, as the limit of two counts them all.
  beforeEach(() => s.pool.query('DELETE FROM query_sessions WHERE user_id = $1', [gus.id]));

  it('keeps a session for a result larger than a page and reads its pages from the snapshot', async () => {
    const first = await open();
    expect(first).toMatchObject({ total: 5, count: 2, query: [{ container: `${fx.tag} Main`, latest: true }] });
    expect(first.items.map((i) => i.number)).toEqual(numbers.slice(0, 2));
    expect(first.session_id).toBeGreaterThan(0);
    expect(await chunks(first.session_id)).toBe(1);
    const third = await query.page(gus, String(first.session_id), { page: 2, start: 0, limit: 2 }, false, BASE);
    expect(third).toMatchObject({ session_id: first.session_id, total: 5, page: 2, count: 1 });
    expect(third.items.map((i) => i.number)).toEqual(numbers.slice(4));
    await query.close(gus, String(first.session_id));
    expect(await state(first.session_id)).toEqual({ close_reason: 'closed' });
    expect(await chunks(first.session_id)).toBe(0);
  });

  it('expires sessions idle past QUERY_SESSION_TTL_MS in the sweep, freeing their place and snapshot', async () => {
    const idle = await open();
    const busy = await open();
    await expect(open()).rejects.toThrow(
      new HttpException(
        'at most 2 query sessions may be open per user: close one (DELETE /query/1.0/query/<session_id>) or let one expire',
        429,
      ),
    );
    await idleSince(idle.session_id, 11);
    await idleSince(busy.session_id, 9);

    expect(await query.sweep()).toBe(1);
    expect(await state(idle.session_id)).toEqual({ close_reason: 'expired' });
    expect(await chunks(idle.session_id)).toBe(0);
    expect(await state(busy.session_id)).toEqual({ close_reason: null });
    expect(await chunks(busy.session_id)).toBe(1);
    await expect(query.page(gus, String(idle.session_id), firstPage, false, BASE)).rejects.toThrow(
      new GoneException(`query session ${idle.session_id} has expired (idle longer than 600 s)`),
    );
    // The expired one no longer counts against the limit.
    const again = await open();
    expect(again.items.map((i) => i.number)).toEqual(numbers.slice(0, 2));
    expect(await query.sweep()).toBe(0);
  });

  it('expires an idle session when it is read, before any sweep, and forgets week-old tombstones', async () => {
    const stale = await open();
    const closed = await open();
    await query.close(gus, String(closed.session_id));
    await idleSince(stale.session_id, 11);
    await expect(query.page(gus, String(stale.session_id), firstPage, false, BASE)).rejects.toThrow(
      new GoneException(`query session ${stale.session_id} has expired (idle longer than 600 s)`),
    );
    expect(await state(stale.session_id)).toEqual({ close_reason: 'expired' });
    expect(await chunks(stale.session_id)).toBe(0);

    await s.pool.query("UPDATE query_sessions SET closed_at = now() - interval '8 days' WHERE id = $1", [
      closed.session_id,
    ]);
    expect(await query.sweep()).toBe(0);
    expect(await state(closed.session_id)).toBeUndefined();
    await expect(query.page(gus, String(closed.session_id), firstPage, false, BASE)).rejects.toThrow(
      new NotFoundException(`no query session ${closed.session_id}`),
    );
    expect(await state(stale.session_id)).toEqual({ close_reason: 'expired' });
  });
});
