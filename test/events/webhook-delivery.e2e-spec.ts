import {
  as,
  createObject,
  eventually,
  EVENTS_ENV,
  useEventsTest,
  handledUpTo,
  setState,
  subscribe,
  subscriptionRow,
} from './events-fixtures.js';
import type { Received } from './webhook-receiver.js';

/**
 * What a webhook's answers do to delivery: 5xx and timeouts are tried again (later events wait),
 * EVENTS_MAX_ATTEMPTS failures or a 4xx make a dead letter, a 410 pauses the subscription.
 */
describe('webhook delivery outcomes', () => {
  const w = useEventsTest({ ...EVENTS_ENV, EVENTS_WEBHOOK_TIMEOUT_MS: '300' });
  const { t, db, containers } = w;

  const ids = (got: Received[]) => got.map((r) => r.event.id);

  async function statsOf(id: number) {
    const res = await as(t.http, 'carol').get('/events/stats');
    expect(res.status).toBe(200);
    const s = (res.body.subscriptions as { id: number }[]).find((x) => x.id === id);
    if (!s) throw new Error(`subscription ${id} is not in GET /events/stats`);
    return s as Record<string, unknown>;
  }

  it('tries an event again after 5xx answers, and later events wait for it', async () => {
    const c = await containers('rt');
    const sub = await subscribe(t.http, 'carol', {
      name: 'retries',
      actions: ['objects.*'],
      container: c.main.name,
      url: w.receiver.url('/retries'),
    });
    const failures = new Map<string, number>();
    w.receiver.answer = (r) => {
      if (r.path !== '/retries' || r.event.type !== 'pdm.object.created') return 200;
      const n = (failures.get(r.event.id) ?? 0) + 1;
      failures.set(r.event.id, n);
      return n <= 2 ? 500 : 200;
    };
    const doc = await createObject(t.http, c.main.name, `${c.tag}-1`);
    await setState(t.http, doc.number, 'UNDERREVIEW');
    await setState(t.http, doc.number, 'INWORK');

    const got = await w.receiver.waitFor('/retries', 5);
    const [first, second, third] = [got[0].event.id, got[3].event.id, got[4].event.id];
    expect(ids(got)).toEqual([first, first, first, second, third]);
    expect(got.map((r) => r.event.type)).toEqual([
      'pdm.object.created',
      'pdm.object.created',
      'pdm.object.created',
      'pdm.object.state-changed',
      'pdm.object.state-changed',
    ]);
    expect(new Set(got.slice(0, 3).map((r) => r.headers['webhook-id']))).toEqual(new Set([first]));
    expect(BigInt(got[3].event.sequence!)).toBeGreaterThan(BigInt(got[0].event.sequence!));

    const stats = await eventually(
      () => statsOf(sub.id),
      (s) => s.delivered === '3',
      'the three events are counted as delivered',
    );
    expect(stats).toMatchObject({
      name: 'retries',
      active: true,
      delivered: '3',
      failures: '2',
      attempts: 0,
      nextAttemptAt: null,
      deadLetters: 0,
      backlog: 0,
      cursor: got[4].event.sequence,
    });
    expect(stats.lastError).toMatch(/500/);
    expect(w.receiver.on('/retries')).toHaveLength(5);
  });

  it('tries an event again after the w.receiver did not answer in time', async () => {
    const c = await containers('to');
    const sub = await subscribe(t.http, 'carol', {
      name: 'timeouts',
      actions: ['objects.create'],
      container: c.main.name,
      url: w.receiver.url('/timeouts'),
    });
    let calls = 0;
    w.receiver.answer = (r) => {
      if (r.path !== '/timeouts') return 200;
      calls += 1;
      return calls === 1 ? 'hang' : 200;
    };
    const doc = await createObject(t.http, c.main.name, `${c.tag}-1`);
    await w.receiver.waitFor('/timeouts', 1);

    // The first call hangs: the subscription says so before the event is delivered.
    const meanwhile = await eventually(
      () => statsOf(sub.id),
      (s) => s.lastError !== null,
      'the timed-out attempt is recorded',
    );
    expect(meanwhile.lastError).toMatch(/timed out after 300 ms/);
    expect(meanwhile.failures).toBe('1');

    const got = await w.receiver.waitFor('/timeouts', 2);
    expect(got.map((r) => r.event.data.object?.number)).toEqual([doc.number, doc.number]);
    expect(got[1].event.id).toBe(got[0].event.id);
    const after = await eventually(
      () => statsOf(sub.id),
      (s) => s.delivered === '1',
      'the event is counted as delivered',
    );
    expect(after).toMatchObject({ delivered: '1', failures: '1', attempts: 0, deadLetters: 0 });
  });

  it('gives up after EVENTS_MAX_ATTEMPTS, moves on, and delivers dead letters again on request', async () => {
    const c = await containers('dl');
    const sub = await subscribe(t.http, 'carol', {
      name: 'dead letters',
      actions: ['objects.*'],
      container: c.main.name,
      url: w.receiver.url('/dead'),
    });
    let down = true;
    w.receiver.answer = (r) => (r.path === '/dead' && down ? 500 : 200);
    const doc = await createObject(t.http, c.main.name, `${c.tag}-1`);
    const failed = await w.receiver.waitFor('/dead', 3);
    const eventId = failed[0].event.id;
    expect(ids(failed)).toEqual([eventId, eventId, eventId]);

    const letters = await eventually(
      () => as(t.http, 'carol').get(`/events/subscriptions/${sub.id}/dead-letters`),
      (res) => res.status !== 200 || res.body.total === 1,
      'the event is a dead letter',
    );
    expect(letters.status).toBe(200);
    expect(letters.body).toMatchObject({ count: 1, total: 1, page: 1 });
    const letter = letters.body.items[0];
    expect(letter).toMatchObject({
      attempts: 3,
      requeued: false,
      eventId,
      event: {
        specversion: '1.0',
        id: eventId,
        type: 'pdm.object.created',
        subject: doc.masterOid,
        data: { action: 'objects.create', user: 'alice', object: { number: doc.number } },
      },
    });
    expect(letter.lastError).toMatch(/500.*attempt 3/);

    // The cursor moved past it: a later event is delivered once the w.receiver is back.
    down = false;
    await setState(t.http, doc.number, 'UNDERREVIEW');
    const after = await w.receiver.waitFor('/dead', 4);
    expect(after[3].event).toMatchObject({ type: 'pdm.object.state-changed', data: { detail: { to: 'UNDERREVIEW' } } });

    const redeliver = await as(t.http, 'carol').post(`/events/subscriptions/${sub.id}/dead-letters/redeliver`, {});
    expect(redeliver.status).toBe(202);
    expect(redeliver.body).toEqual({ requeued: 1 });
    const again = await w.receiver.waitFor('/dead', 5);
    expect(again[4].headers['webhook-id']).toBe(eventId);
    expect(again[4].event).toMatchObject({ id: eventId, type: 'pdm.object.created' });
    const emptied = await eventually(
      () => as(t.http, 'carol').get(`/events/subscriptions/${sub.id}/dead-letters`),
      (res) => res.status !== 200 || res.body.total === 0,
      'the delivered dead letter leaves the list',
    );
    expect(emptied.status).toBe(200);
    expect(emptied.body).toMatchObject({ count: 0, total: 0, items: [] });
    const nothing = await as(t.http, 'carol').post(`/events/subscriptions/${sub.id}/dead-letters/redeliver`, {});
    expect(nothing.status).toBe(202);
    expect(nothing.body).toEqual({ requeued: 0 });
  });

  it('makes a dead letter of an event the w.receiver refuses with a 4xx at once, and deletes it on request', async () => {
    const c = await containers('rj');
    const sub = await subscribe(t.http, 'carol', {
      name: 'refused',
      actions: ['objects.*'],
      container: c.main.name,
      url: w.receiver.url('/refused'),
    });
    w.receiver.answer = (r) => (r.path === '/refused' && r.event.type === 'pdm.object.created' ? 400 : 200);
    const doc = await createObject(t.http, c.main.name, `${c.tag}-1`);
    await setState(t.http, doc.number, 'UNDERREVIEW');
    const got = await w.receiver.waitFor('/refused', 2);
    // The state change came after the refused event was given up on: no second try of it came.
    expect(got.map((r) => r.event.type)).toEqual(['pdm.object.created', 'pdm.object.state-changed']);

    const letters = await eventually(
      () => as(t.http, 'carol').get(`/events/subscriptions/${sub.id}/dead-letters`),
      (res) => res.status !== 200 || res.body.total === 1,
      'the refused event is a dead letter',
    );
    expect(letters.status).toBe(200);
    const letter = letters.body.items[0];
    expect(letter).toMatchObject({ attempts: 1, eventId: got[0].event.id, event: { id: got[0].event.id } });
    expect(letter.lastError).toMatch(/400 Bad Request \(attempt 1\)/);

    const path = `/events/subscriptions/${sub.id}/dead-letters/discard`;
    const bob = await as(t.http, 'bob').post(path, { ids: [letter.id] });
    expect(bob.status).toBe(404);
    const discarded = await as(t.http, 'carol').post(path, { ids: [letter.id] });
    expect([discarded.status, discarded.body]).toEqual([200, { discarded: 1 }]);
    const again = await as(t.http, 'carol').post(path, { ids: [letter.id] });
    expect([again.status, again.body]).toEqual([200, { discarded: 0 }]);
    const list = await as(t.http, 'carol').get(`/events/subscriptions/${sub.id}/dead-letters`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 0, items: [] });
  });

  it('pauses on 410 Gone and resumes at the event answered 410', async () => {
    const c = await containers('gn');
    const sub = await subscribe(t.http, 'carol', {
      name: 'gone',
      actions: ['objects.*'],
      container: c.main.name,
      url: w.receiver.url('/gone'),
    });
    // Delivers the same events to another path: once it has one, the paused subscription could have too.
    const control = await subscribe(t.http, 'carol', {
      name: 'control',
      actions: ['objects.*'],
      container: c.main.name,
      url: w.receiver.url('/control'),
    });
    let gone = true;
    w.receiver.answer = (r) => (r.path === '/gone' && gone && r.event.type === 'pdm.object.state-changed' ? 410 : 200);
    const doc = await createObject(t.http, c.main.name, `${c.tag}-1`);
    await setState(t.http, doc.number, 'UNDERREVIEW');
    const before = await w.receiver.waitFor('/gone', 2);

    const paused = await eventually(
      () => as(t.http, 'carol').get(`/events/subscriptions/${sub.id}`),
      (res) => res.status !== 200 || res.body.active === false,
      'the subscription is paused',
    );
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ id: sub.id, active: false });
    expect(paused.body.pausedReason).toMatch(/410/);

    await setState(t.http, doc.number, 'INWORK');
    const seen = await w.receiver.waitFor('/control', 3);
    await handledUpTo(db, control.id, seen[2].event.sequence!);
    expect(w.receiver.on('/gone')).toHaveLength(2);
    expect((await subscriptionRow(db, sub.id)).cursor).toBe(BigInt(before[0].event.sequence!));

    gone = false;
    const resumed = await as(t.http, 'carol').patch(`/events/subscriptions/${sub.id}`, { active: true });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ id: sub.id, active: true, pausedReason: null });
    expect(resumed.body.secret).toBeUndefined();
    const got = await w.receiver.waitFor('/gone', 4);
    expect(ids(got)).toEqual([seen[0].event.id, seen[1].event.id, seen[1].event.id, seen[2].event.id]);
    expect(got.map((r) => r.event.data.detail?.to ?? null)).toEqual([null, 'UNDERREVIEW', 'UNDERREVIEW', 'INWORK']);
  });
});
