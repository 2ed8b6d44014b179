import { useTestApp } from '../helpers/use-test-app.js';
import { testPool } from '../helpers/test-database.js';
import { as, dropEvents, EVENTS_ENV, eventsContainers, subscribe } from './events-fixtures.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** Who may make, see and change subscriptions, and what a subscription may say. */
describe('subscriptions over HTTP', () => {
  const t = useTestApp(EVENTS_ENV);
  const db = testPool();
  let c: Awaited<ReturnType<typeof eventsContainers>>;
  const url = 'http://127.0.0.1:9/hook';

  beforeAll(async () => {
    c = await eventsContainers(db, 'api');
  });
  afterAll(async () => {
    await dropEvents(db, [c.main.id, c.other.id]);
    await db.end();
  });

  it('lets administrators and managers of the container subscribe, nobody else', async () => {
    const body = { name: 'refused', actions: ['objects.*'], container: c.main.name, url };
    for (const user of ['bob', 'alice'] as const) {
      const res = await as(t.http, user).post('/events/subscriptions', body);
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/managers/);
    }
    const noContainer = await as(t.http, 'carol').post('/events/subscriptions', { ...body, container: undefined });
    expect(noContainer.status).toBe(403);
    expect(noContainer.body.message).toMatch(/name a container you manage/);
    const notHers = await as(t.http, 'carol').post('/events/subscriptions', { ...body, container: c.other.name });
    expect(notHers.status).toBe(403);
    expect(notHers.body.message).toMatch(/managers subscribe/);

    const admin = await as(t.http, 'admin').post('/events/subscriptions', {
      name: `api ${c.tag}`,
      actions: ['*'],
      url,
    });
    expect(admin.status).toBe(201);
    expect(admin.body).toMatchObject({ owner: 'admin', container: null, actions: ['*'], url, active: true });
    expect(admin.body.secret).toMatch(/^whsec_/);
    const carol = await as(t.http, 'carol').post('/events/subscriptions', { ...body, name: 'carol api' });
    expect(carol.status).toBe(201);
    expect(carol.body).toMatchObject({ owner: 'carol', container: c.main.name, pausedReason: null });
  });

  it.each([
    ['an unknown action', { actions: ['files.update'] }, /^actions: unknown action files\.update/],
    ['a bad action pattern', { actions: ['objects.**'] }, /^actions: "objects\.\*\*" is not an action/],
    ['no action', { actions: [] }, /actions must name at least one action/],
    ['an unknown type', { type: 'wt.nothing.Here' }, /^type: /],
    ['a bad secret', { secret: 'not-a-secret' }, /^secret: /],
    ['url and nats both', { nats: 'pdm.erp' }, /give one of url .*not url and nats/],
    [
      'nats without EVENTS_NATS_URL',
      { url: undefined, nats: 'pdm.erp' },
      /^nats: no NATS server is configured \(EVENTS_NATS_URL\)/,
    ],
    ['a private address', { url: 'http://10.1.2.3/' }, /^url: .*private address/],
    ['the metadata address', { url: 'http://169.254.169.254/' }, /^url: .*link-local address/],
    [
      'an ftp URL',
      { url: 'ftp://127.0.0.1/hook' },
      /^url: a webhook URL starts with http:\/\/ or https:\/\/, not ftp:\/\//,
    ],
    ['a bad state', { state: 'released' }, /state must be a state name/],
    ['an unknown container', { container: 'no such container' }, /^container: no container named/],
  ])('refuses %s with 400 naming the field', async (_, change, message) => {
    const res = await as(t.http, 'admin').post('/events/subscriptions', {
      name: 'invalid',
      actions: ['objects.*'],
      url,
      ...change,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('shows subscriptions to their owners, the managers of their container and administrators', async () => {
    const sub = await subscribe(t.http, 'carol', {
      name: 'visible',
      actions: ['objects.state'],
      container: c.main.name,
      url,
      secret: SECRET,
    });
    expect(sub.secret).toBe(SECRET);
    const mine = await subscribe(t.http, 'admin', { name: `admin only ${c.tag}`, actions: ['objects.*'], url });

    const names = async (user: 'admin' | 'bob' | 'carol') => {
      const res = await as(t.http, user).get('/events/subscriptions');
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(res.body.items.length);
      return (res.body.items as { name: string }[]).map((s) => s.name);
    };
    expect(await names('bob')).toEqual([]);
    const carols = await names('carol');
    expect(carols).toContain('visible');
    expect(carols).not.toContain(`admin only ${c.tag}`);
    expect(await names('admin')).toEqual(expect.arrayContaining(['visible', `admin only ${c.tag}`]));

    const read = await as(t.http, 'carol').get(`/events/subscriptions/${sub.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: sub.id, name: 'visible', secretHint: '…aLaSw' });
    expect(read.body.secret).toBeUndefined();
    for (const [user, id] of [
      ['bob', sub.id],
      ['alice', sub.id],
      ['carol', mine.id],
    ] as const) {
      const res = await as(t.http, user).get(`/events/subscriptions/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(`no subscription ${id}`);
    }

    const taken = await as(t.http, 'carol').post('/events/subscriptions', {
      name: 'visible',
      actions: ['objects.*'],
      container: c.main.name,
      url,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/a subscription named "visible" is there already/);
  });

  it('changes and deletes subscriptions, recording each change without the secret', async () => {
    const sub = await subscribe(t.http, 'carol', {
      name: 'changing',
      actions: ['objects.state'],
      container: c.main.name,
      url,
      secret: SECRET,
    });
    const bob = await as(t.http, 'bob').patch(`/events/subscriptions/${sub.id}`, { state: 'RELEASED' });
    expect(bob.status).toBe(404);
    const bad = await as(t.http, 'carol').patch(`/events/subscriptions/${sub.id}`, { url: 'http://10.0.0.1/x' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^url: /);
    const changed = await as(t.http, 'carol').patch(`/events/subscriptions/${sub.id}`, {
      name: 'changed',
      state: 'RELEASED',
      active: false,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: sub.id, name: 'changed', state: 'RELEASED', active: false, url });
    expect(changed.body.secret).toBeUndefined();

    const deleted = await as(t.http, 'carol').delete(`/events/subscriptions/${sub.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toEqual({});
    const again = await as(t.http, 'carol').delete(`/events/subscriptions/${sub.id}`);
    expect(again.status).toBe(404);
    const read = await as(t.http, 'admin').get(`/events/subscriptions/${sub.id}`);
    expect(read.status).toBe(404);

    const audit = await as(t.http, 'admin').get('/admin/events?action=events.*&limit=100');
    expect(audit.status).toBe(200);
    const mine = (audit.body.items as { action: string; number: string | null; user: string }[]).filter(
      (e) => e.number === 'changing' || e.number === 'changed',
    );
    expect(mine.map((e) => `${e.action} ${e.number} ${e.user}`)).toEqual([
      'events.subscription.delete changed carol',
      'events.subscription.update changed carol',
      'events.subscription.create changing carol',
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(SECRET);
    expect(JSON.stringify(audit.body)).not.toContain(SECRET.slice(6));
  });
});

describe('subscriptions without EVENTS_WEBHOOK_ALLOW', () => {
  const t = useTestApp({ ...EVENTS_ENV, EVENTS_WEBHOOK_ALLOW: '' });

  it.each(['http://localhost:1/', 'http://127.0.0.1:1/'])('refuses the loopback webhook %s', async (url) => {
    const res = await as(t.http, 'admin').post('/events/subscriptions', { name: 'loop', actions: ['*'], url });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^url: .*loopback address/);
  });
});
