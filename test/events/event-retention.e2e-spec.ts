import { EventsRepository } from '../../src/events/events.repository.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { testPool } from '../helpers/test-database.js';
import {
  as,
  createObject,
  dropEvents,
  EVENTS_ENV,
  eventsContainers,
  handledUpTo,
  setState,
  subscribe,
  subscriptionRow,
} from './events-fixtures.js';
import { WebhookReceiver } from './webhook-receiver.js';

/**
 * Pruning the log (EVENTS_RETENTION_HOURS; 0 here) never removes an event an active subscription
 * has not handled yet: the log goes up to the lowest cursor of the active subscriptions only.
 * The pruning is called as DeliveryService calls it once a minute, with the retention's cut-off.
 */
describe('pruning the event log', () => {
  const t = useTestApp({ ...EVENTS_ENV, EVENTS_RETENTION_HOURS: '0', EVENTS_MAX_ATTEMPTS: '100' });
  const db = testPool();
  let receiver: WebhookReceiver;
  let c: Awaited<ReturnType<typeof eventsContainers>>;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    c = await eventsContainers(db, 'ret');
  });
  afterAll(async () => {
    await dropEvents(db, [c.main.id, c.other.id]);
    await receiver.close();
    await db.end();
  });

  const prune = () =>
    t.get(EventsRepository).prune(new Date(Date.now() - t.config.eventsRetentionHours * 3_600_000), 10_000);
  const logged = async (from: string, to: string) => {
    const { rows } = await db.query<{ position: string }>(
      'SELECT position::text FROM event_log WHERE position BETWEEN $1 AND $2 ORDER BY position',
      [from, to],
    );
    return rows.map((r) => r.position);
  };

  it('keeps what an active subscription has not delivered, whatever a paused one has not', async () => {
    const base = { actions: ['objects.*'], container: c.main.name };
    // Paused from the start: its cursor stays before everything below.
    const paused = await subscribe(t.http, 'carol', {
      ...base,
      name: 'paused',
      active: false,
      url: receiver.url('/paused'),
    });
    const held = await subscribe(t.http, 'carol', { ...base, name: 'held', url: receiver.url('/held') });
    const fine = await subscribe(t.http, 'carol', { ...base, name: 'fine', url: receiver.url('/fine') });
    let down = false;
    receiver.answer = (r) => (r.path === '/held' && down ? 500 : 200);

    const doc = await createObject(t.http, c.main.name, `${c.tag}-1`);
    const [first] = await receiver.waitFor('/held', 1);
    await handledUpTo(db, held.id, first.event.sequence!);
    down = true;
    await setState(t.http, doc.number, 'UNDERREVIEW');
    await setState(t.http, doc.number, 'INWORK');
    const all = await receiver.waitFor('/fine', 3);
    await handledUpTo(db, fine.id, all[2].event.sequence!);
    await receiver.waitFor('/held', 2);
    const [e1, e2, e3] = all.map((r) => r.event.sequence!);
    expect(e1).toBe(first.event.sequence);
    expect((await subscriptionRow(db, held.id)).cursor).toBe(BigInt(e1));
    expect((await subscriptionRow(db, paused.id)).cursor).toBeLessThan(BigInt(e1));

    expect(await prune()).toBeGreaterThan(0);
    expect(await logged('0', e1)).toEqual([]);
    expect(await logged(e2, e3)).toEqual([e2, e3]);
    const stats = await as(t.http, 'carol').get('/events/stats');
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ oldest: e2, head: e3 });
    // Nothing more goes while the event after the held cursor is undelivered.
    expect(await prune()).toBe(0);

    down = false;
    await handledUpTo(db, held.id, e3);
    const got = receiver.on('/held').map((r) => r.event.sequence);
    expect(got[0]).toBe(e1);
    expect(got.slice(1, -1).every((s) => s === e2)).toBe(true);
    expect(got.slice(-2)).toEqual([e2, e3]);
    expect(await prune()).toBeGreaterThanOrEqual(2);
    expect(await logged('0', e3)).toEqual([]);
  });
});
