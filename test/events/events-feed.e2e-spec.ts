import request from 'supertest';
import { createTestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { bearer, createToken, dropUsers, freshUser } from '../auth/tokens-fixtures.js';
import { as, dropEvents, EVENTS_ENV, eventsContainers, type User } from './events-fixtures.js';

interface FeedEvent {
  specversion: string;
  id: string;
  source: string;
  type: string;
  subject?: string;
  time: string;
  datacontenttype: string;
  sequence: string;
  data: { action: string; user: string; object?: Record<string, unknown>; detail: Record<string, unknown> | null };
}

/**
 * The pull feed, GET /events: paging with the cursor, the reader's rights, what the query may
 * say, and a log pruned under a reader's cursor. Each test reads from the log's head as it found
 * it, so events of other files in the run do not matter.
 */
describe('GET /events', () => {
  const t = useTestApp(EVENTS_ENV);
  const db = testPool();
  let c: Awaited<ReturnType<typeof eventsContainers>>;
  let serial = 0;

  beforeAll(async () => {
    c = await eventsContainers(db, 'fd');
  });
  afterAll(async () => {
    await dropEvents(db, [c.main.id, c.other.id]);
    await dropUsers(db, `fd${c.tag}`);
    await db.end();
  });

  /** The log's newest position (what a reader that has read everything holds as its cursor). */
  async function head(): Promise<string> {
    const { rows } = await db.query<{ head: string }>('SELECT COALESCE(max(position), 0)::text AS head FROM event_log');
    return rows[0].head;
  }

  /** The log after `after`: position, audit id and action of each event, in log order. */
  async function logAfter(after: string): Promise<{ position: string; id: string; action: string }[]> {
    const { rows } = await db.query<{ position: string; id: string; action: string }>(
      `SELECT l.position::text AS position, a.id::text AS id, a.action
       FROM event_log l JOIN audit_events a ON a.id = l.event_id WHERE l.position > $1 ORDER BY l.position`,
      [after],
    );
    return rows;
  }

  /** Creates a document in `container` as alice; answers its number and master OID. */
  async function doc(container: string): Promise<{ number: string; masterOid: string }> {
    const res = await as(t.http, 'alice').post('/objects', {
      container,
      type: 'wt.doc.WTDocument',
      number: `${c.tag}-F${++serial}`,
      name: `feed ${serial}`,
    });
    expect(res.status).toBe(201);
    return res.body as { number: string; masterOid: string };
  }

  async function feed(user: User, query: string): Promise<{ events: FeedEvent[]; cursor: string; missed: boolean }> {
    const res = await as(t.http, user).get(`/events?${query}`);
    expect({ status: res.status, keys: Object.keys(res.body as object).sort() }).toEqual({
      status: 200,
      keys: ['cursor', 'events', 'missed'],
    });
    return res.body as { events: FeedEvent[]; cursor: string; missed: boolean };
  }

  it('pages through the events in commit order: each cursor goes on where its answer stopped', async () => {
    const start = await head();
    const a = await doc(c.main.name);
    expect((await as(t.http, 'alice').post(`/objects/${a.number}/state`, { state: 'UNDERREVIEW' })).status).toBe(200);
    await doc(c.main.name);
    await doc(c.main.name);
    await doc(c.main.name);
    const log = await logAfter(start);
    expect(log.map((e) => e.action)).toEqual([
      'objects.create',
      'objects.state',
      'objects.create',
      'objects.create',
      'objects.create',
    ]);

    const pages: FeedEvent[][] = [];
    let cursor = start;
    for (let i = 0; i < 3; i++) {
      const page = await feed('admin', `after=${cursor}&limit=2`);
      pages.push(page.events);
      expect(page.missed).toBe(false);
      if (page.events.length) expect(page.cursor).toBe(page.events[page.events.length - 1].sequence);
      cursor = page.cursor;
    }
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    const read = pages.flat();
    expect(read.map((e) => [e.sequence, e.id])).toEqual(log.map((e) => [e.position, e.id]));

    // At the head: no events, the same cursor.
    expect(await feed('admin', `after=${cursor}&limit=2`)).toEqual({ events: [], cursor, missed: false });

    const { rows } = await db.query<{ at: Date; detail: Record<string, unknown> }>(
      'SELECT at, detail FROM audit_events WHERE id = $1',
      [log[1].id],
    );
    expect(read[1]).toEqual({
      specversion: '1.0',
      id: log[1].id,
      source: 'urn:pdm-services',
      type: 'pdm.object.state-changed',
      subject: a.masterOid,
      time: rows[0].at.toISOString(),
      datacontenttype: 'application/json',
      sequence: log[1].position,
      data: {
        action: 'objects.state',
        user: 'alice',
        object: {
          oid: a.masterOid,
          number: a.number,
          name: 'feed 1',
          type: 'wt.doc.WTDocument',
          container: c.main.name,
        },
        detail: rows[0].detail,
      },
    });
    expect(read[1].data.detail).toMatchObject({ from: 'INWORK', to: 'UNDERREVIEW' });
  });

  it('starts at the oldest event kept when `after` is left out', async () => {
    const { rows } = await db.query<{ first: string }>('SELECT min(position)::text AS first FROM event_log');
    const first = rows[0].first;
    const page = await feed('admin', 'limit=1');
    expect(page.events.map((e) => e.sequence)).toEqual([first]);
    expect(page).toMatchObject({ cursor: first, missed: false });
  });

  it("shows a reader only his containers' events, and moves his cursor past the others", async () => {
    const start = await head();
    const main1 = await doc(c.main.name);
    await doc(c.other.name);
    const sub = await as(t.http, 'admin').post('/events/subscriptions', {
      name: `feed ${c.tag}`,
      actions: ['objects.*'],
      url: 'http://127.0.0.1:9/never',
      active: false,
    });
    expect(sub.status).toBe(201);
    const main2 = await doc(c.main.name);
    await doc(c.other.name);
    const log = await logAfter(start);
    expect(log.map((e) => e.action)).toEqual([
      'objects.create',
      'objects.create',
      'events.subscription.create',
      'objects.create',
      'objects.create',
    ]);

    const bob = await feed('bob', `after=${start}`);
    expect(bob.events.map((e) => [e.id, e.subject, e.data.object?.container])).toEqual([
      [log[0].id, main1.masterOid, c.main.name],
      [log[3].id, main2.masterOid, c.main.name],
    ]);
    // The window ended on an event of the other container: the cursor is past it all the same.
    expect(bob).toMatchObject({ cursor: log[4].position, missed: false });
    // Only hidden events after his cursor: none, and a cursor that moved on.
    expect(await feed('bob', `after=${log[3].position}`)).toEqual({
      events: [],
      cursor: log[4].position,
      missed: false,
    });
    // With a limit, the cursor stops at the last event answered.
    const one = await feed('bob', `after=${start}&limit=1`);
    expect([one.events.map((e) => e.id), one.cursor]).toEqual([[log[0].id], log[0].position]);
    const two = await feed('bob', `after=${one.cursor}&limit=1`);
    expect([two.events.map((e) => e.id), two.cursor]).toEqual([[log[3].id], log[3].position]);

    const admin = await feed('admin', `after=${start}`);
    expect(admin.events.map((e) => e.id)).toEqual(log.map((e) => e.id));
    expect(admin.events[2]).toMatchObject({
      type: 'pdm.events.subscription.create',
      data: { action: 'events.subscription.create', user: 'admin', detail: { name: `feed ${c.tag}`, active: false } },
    });
    expect(admin.events[2].data.object).toMatchObject({ container: null });
    expect(admin.cursor).toBe(log[4].position);
  });

  it("answers a usage link's member as restricted to a reader who may not read it", async () => {
    const part = async (container: string, number: string) => {
      const res = await as(t.http, 'alice').post('/objects', {
        container,
        type: 'wt.part.WTPart',
        number,
        name: number,
      });
      expect(res.status).toBe(201);
    };
    await part(c.main.name, `${c.tag}-PA`);
    await part(c.other.name, `${c.tag}-PB`);
    const start = await head();
    const used = await as(t.http, 'alice').post(`/objects/${c.tag}-PA/uses`, { member: `${c.tag}-PB` });
    expect(used.status).toBe(201);

    const alice = await feed('alice', `after=${start}`);
    const bob = await feed('bob', `after=${start}`);
    expect(alice.events.map((e) => [e.type, e.data.detail?.member])).toEqual([['pdm.usage.added', `${c.tag}-PB`]]);
    expect(bob.events.map((e) => [e.type, e.data.detail?.member])).toEqual([['pdm.usage.added', { restricted: true }]]);
    expect(bob.events[0].data.detail).toMatchObject({ quantity: 1, unit: 'ea' });
  });

  it('lets a personal access token of the read scope read the feed, with its user’s rights', async () => {
    const user = await freshUser(db, `fd${c.tag}`);
    await db.query(
      "INSERT INTO memberships (container_id, user_id, role) SELECT $1, id, 'reader' FROM users WHERE name = $2",
      [c.main.id, user[0]],
    );
    const { token } = await createToken(t.http, user, { name: 'feed', scopes: ['read'] });
    const start = await head();
    const shown = await doc(c.main.name);
    await doc(c.other.name);
    const res = await request(t.http).get(`/events?after=${start}`).set('Authorization', bearer(token));
    expect(res.status).toBe(200);
    expect((res.body as { events: FeedEvent[] }).events.map((e) => e.subject)).toEqual([shown.masterOid]);
    expect(res.body).toMatchObject({ cursor: await head(), missed: false });
  });

  it.each([
    ['after=abc', 'after must be a cursor'],
    ['after=-1', 'after must be a cursor'],
    ['limit=0', 'limit must be at least 1'],
    ['limit=1001', 'limit must be at most 1000'],
    ['wait=31', 'wait must be at most 30'],
  ])('refuses %s with 400 naming the parameter', async (query, message) => {
    const res = await as(t.http, 'admin').get(`/events?${query}`);
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: 'Bad Request' });
    expect(JSON.stringify(res.body.message)).toContain(message);
  });

  it('answers 401 without credentials', async () => {
    const res = await request(t.http).get('/events');
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 401, error: 'Unauthorized' });
  });

  it('continues a cursor of one instance on another on the same database', async () => {
    const start = await head();
    await doc(c.main.name);
    await doc(c.main.name);
    await doc(c.main.name);
    const first = await feed('bob', `after=${start}&limit=1`);
    const expected = await feed('bob', `after=${first.cursor}`);
    expect(expected.events).toHaveLength(2);
    const second = await createTestApp(EVENTS_ENV);
    try {
      const res = await request(second.http).get(`/events?after=${first.cursor}`).auth('bob', 'bob-pw');
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expected });
    } finally {
      await second.close();
    }
  });

  it('says `missed` when events after the cursor were pruned before it read them', async () => {
    await doc(c.main.name);
    await doc(c.main.name);
    const { rows: kept } = await db.query<{ position: string }>(
      'SELECT l.position::text AS position FROM event_log l ORDER BY l.position DESC LIMIT 2',
    );
    const [newest, older] = kept.map((r) => r.position);
    // As EVENTS_RETENTION_HOURS prunes: every event before `older` goes; put back afterwards.
    const { rows: pruned } = await db.query('DELETE FROM event_log WHERE position < $1 RETURNING *', [older]);
    expect(pruned.length).toBeGreaterThan(0);
    try {
      const fromStart = await feed('admin', 'after=0');
      expect(fromStart.events.map((e) => e.sequence)).toEqual([older, newest]);
      expect(fromStart).toMatchObject({ cursor: newest, missed: true });
      const justBefore = await feed('admin', `after=${BigInt(older) - 1n}`);
      expect(justBefore).toMatchObject({ cursor: newest, missed: false });
      expect(await feed('admin', 'limit=1')).toMatchObject({ cursor: older, missed: false });
    } finally {
      for (const r of pruned as { position: string; event_id: string; logged_at: Date }[]) {
        await db.query('INSERT INTO event_log (position, event_id, logged_at) VALUES ($1, $2, $3)', [
          r.position,
          r.event_id,
          r.logged_at,
        ]);
      }
    }
  });
});
