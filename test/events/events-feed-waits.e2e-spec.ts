import { jest } from '@jest/globals';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { AuthNotices } from '../../src/auth/auth-notices.js';
import { EventWakeups } from '../../src/events/event-wakeups.js';
import { pollUntil, withinMs } from '../helpers/bounded-wait.js';
import { embeddedTestRun, testPool } from '../helpers/test-database.js';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { as, dropEvents, EVENTS_ENV, eventsContainers, type User } from './events-fixtures.js';

/** Far above any answer here: only decides when a test gives up. */
const ANSWER_MS = 15_000;

/**
 * Long polls of the feed (GET /events?wait=): woken by the notice a commit sends, or by polling
 * without notices, and limited per user. Each app listens on one server, so requests made at
 * the same time reach the same instance. Whether a request is waiting is seen through the
 * instance's EventWakeups (the feed waits there and nowhere else).
 */
function waitTests(name: string, env: Record<string, string>, notices: boolean) {
  // A run on the embedded database has no listening connection: only the polling half applies.
  (notices && embeddedTestRun() ? describe.skip : describe)(name, () => {
    const t = useTestApp({ ...EVENTS_ENV, EVENTS_FEED_WAITS_PER_USER: '1', ...env });
    const db = testPool();
    let c: Awaited<ReturnType<typeof eventsContainers>>;
    let serial = 0;
    let waits: jest.SpiedFunction<EventWakeups['next']>;

    beforeAll(async () => {
      await t.app.listen(0, '127.0.0.1');
      c = await eventsContainers(db, 'fw');
      waits = jest.spyOn(t.get(EventWakeups), 'next');
    });
    afterAll(async () => {
      waits.mockRestore();
      await dropEvents(db, [c.main.id, c.other.id]);
      await db.end();
    });

    async function head(): Promise<string> {
      const { rows } = await db.query<{ head: string }>(
        'SELECT COALESCE(max(position), 0)::text AS head FROM event_log',
      );
      return rows[0].head;
    }

    function get(user: User, query: string) {
      return as(t.http, user)
        .get(`/events?${query}`)
        .then((res) => res);
    }

    async function doc(): Promise<{ number: string; masterOid: string }> {
      const res = await as(t.http, 'alice').post('/objects', {
        container: c.main.name,
        type: 'wt.doc.WTDocument',
        number: `${c.tag}-W${++serial}`,
        name: `wait ${serial}`,
      });
      expect(res.status).toBe(201);
      return res.body as { number: string; masterOid: string };
    }

    /** Resolves once `n` more waits than `before` have begun (fails when `pending` is answered first). */
    async function waiting(before: number, pending: PromiseLike<unknown>[], n = 1): Promise<void> {
      await pollUntil(async () => waits.mock.calls.length >= before + n, 'the feed request waits', { pending });
    }

    it(`answers a waiting request with the event another request commits (${notices ? 'notice' : 'polling'})`, async () => {
      expect(t.get(AuthNotices).live).toBe(notices);
      const start = await head();
      const before = waits.mock.calls.length;
      const poll = get('bob', `after=${start}&wait=5`);
      await waiting(before, [poll]);
      const created = await doc();
      const res = await withinMs(poll, ANSWER_MS, 'the waiting request is answered');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        events: [expect.objectContaining({ type: 'pdm.object.created', subject: created.masterOid })],
        cursor: await head(),
        missed: false,
      });
    });

    it('answers no events and the same cursor when nothing came within `wait`', async () => {
      const start = await head();
      const res = await get('bob', `after=${start}&wait=1`);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 200,
        body: { events: [], cursor: start, missed: false },
      });
    });

    it("refuses a user's second waiting request with 429 until the first is answered", async () => {
      const start = await head();
      const before = waits.mock.calls.length;
      const first = get('alice', `after=${start}&wait=10`);
      await waiting(before, [first]);

      const second = await get('alice', `after=${start}&wait=5`);
      expect(second.status).toBe(429);
      expect(second.headers['retry-after']).toBe('1');
      expect(second.body).toEqual({
        statusCode: 429,
        error: 'Too Many Requests',
        message: expect.stringContaining(
          'alice holds 1 waiting feed requests on this instance (EVENTS_FEED_WAITS_PER_USER)',
        ),
        requestId: expect.any(String),
      });
      // Without wait the same user is answered at once; another user may wait.
      expect(await get('alice', `after=${start}`)).toMatchObject({
        status: 200,
        body: { events: [], cursor: start },
      });
      expect(await get('bob', `after=${start}&wait=1`)).toMatchObject({
        status: 200,
        body: { events: [], cursor: start },
      });

      const created = await doc();
      const answered = await withinMs(first, ANSWER_MS, 'the first waiting request is answered');
      expect({
        status: answered.status,
        subjects: answered.body.events.map((e: { subject: string }) => e.subject),
      }).toEqual({
        status: 200,
        subjects: [created.masterOid],
      });
      const again = await get('alice', `after=${answered.body.cursor}&wait=1`);
      expect({ status: again.status, body: again.body }).toEqual({
        status: 200,
        body: { events: [], cursor: answered.body.cursor, missed: false },
      });
    });

    it('frees the wait of a request whose client went away', async () => {
      const start = await head();
      const before = waits.mock.calls.length;
      const client = new AbortController();
      const { port } = (t.http as unknown as Server).address() as AddressInfo;
      const [user, password] = USERS.alice;
      const gone = fetch(`http://127.0.0.1:${port}/events?after=${start}&wait=30`, {
        headers: { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
        signal: client.signal,
      }).catch((e: Error) => e);
      await waiting(before, [gone]);
      client.abort();
      expect(await gone).toMatchObject({ name: 'AbortError' });
      // The slot is free once the instance saw the client go: a new wait is taken, not refused.
      let last: request.Response | undefined;
      await pollUntil(
        async () => {
          last = await get('alice', `after=${start}&wait=1`);
          return last.status !== 429;
        },
        'a new wait of the same user is accepted',
        { ms: ANSWER_MS },
      );
      expect({ status: last?.status, body: last?.body }).toEqual({
        status: 200,
        body: { events: [], cursor: start, missed: false },
      });
    });
  });
}

describe('GET /events?wait=', () => {
  // No poll within a test's waits: only the notice of the commit can wake the request.
  waitTests('with notices', { EVENTS_POLL_MS: '60000' }, true);
  waitTests('without notices (AUTH_NOTICES=false)', { AUTH_NOTICES: 'false', EVENTS_POLL_MS: '100' }, false);
});
