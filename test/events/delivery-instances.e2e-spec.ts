import { DeliveryService } from '../../src/events/delivery/delivery.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import {
  as,
  dropEvents,
  eventually,
  EVENTS_ENV,
  eventsContainers,
  subscribe,
  subscriptionRow,
} from './events-fixtures.js';
import { SlowReceiver } from './webhook-receiver.js';

const WRITES = 50;

/**
 * Two instances on one database deliver one subscription: one loop at a time (the lease), each
 * event once and in commit order; when the instance delivering stops, the other goes on.
 */
describe('delivery from two instances', () => {
  const env = { ...EVENTS_ENV, EVENTS_LEASE_MS: '1000' };
  const db = testPool();
  const apps: TestApp[] = [];
  const stopped = new Set<TestApp>();
  let receiver: SlowReceiver;
  let c: Awaited<ReturnType<typeof eventsContainers>>;

  beforeAll(async () => {
    receiver = await SlowReceiver.start(20);
    c = await eventsContainers(db, 'two');
    apps.push(await createTestApp(env), await createTestApp(env));
  });
  afterAll(async () => {
    for (const app of apps) if (!stopped.has(app)) await app.close();
    await dropEvents(db, [c.main.id, c.other.id]);
    await receiver.close();
    await db.end();
  });

  it('delivers a burst once each, in order, without overlapping calls, across a stopped instance', async () => {
    const sub = await subscribe(apps[0].http, 'carol', {
      name: 'two instances',
      actions: ['objects.create'],
      container: c.main.name,
      url: receiver.url(),
    });
    const numbers: string[] = [];
    for (let i = 0; i < WRITES; i += 5) {
      const batch = await Promise.all(
        [0, 1, 2, 3, 4].map((j) =>
          as(apps[(i + j) % 2].http, 'alice').post('/objects', {
            container: c.main.name,
            type: 'wt.doc.WTDocument',
            number: `${c.tag}-${i + j}`,
            name: 'burst',
          }),
        ),
      );
      for (const res of batch) expect(res.status).toBe(201);
      numbers.push(...batch.map((r) => r.body.number as string));
    }

    // Stops the instance holding the lease while the burst is under way.
    const row = await eventually(
      () => subscriptionRow(db, sub.id),
      () => receiver.received.length >= 15,
      'a part of the burst is delivered',
    );
    expect(receiver.received.length).toBeLessThan(WRITES);
    const holder = apps.find((a) => a.app.get(DeliveryService).owner === row.lease_owner) ?? apps[0];
    stopped.add(holder);
    await holder.close();

    await eventually(
      () => subscriptionRow(db, sub.id),
      () => receiver.received.length >= WRITES,
      'the whole burst is delivered',
    );
    const done = await eventually(
      () => as(apps.find((a) => !stopped.has(a))!.http, 'carol').get('/events/stats'),
      (res) => res.status !== 200 || res.body.subscriptions.find((s: { id: number }) => s.id === sub.id)?.backlog === 0,
      'the subscription has nothing left to deliver',
    );
    expect(done.status).toBe(200);
    expect(done.body.subscriptions.find((s: { id: number }) => s.id === sub.id)).toMatchObject({
      delivered: String(WRITES),
      failures: '0',
      deadLetters: 0,
    });

    const got = receiver.received;
    expect(got).toHaveLength(WRITES);
    expect(new Set(got.map((r) => r.id)).size).toBe(WRITES);
    const sequences = got.map((r) => BigInt(r.sequence));
    expect(sequences).toEqual([...sequences].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const { rows } = await db.query<{ id: string }>(
      `SELECT a.id::text FROM audit_events a JOIN event_log l ON l.event_id = a.id
       WHERE a.action = 'objects.create' AND a.container_id = $1 ORDER BY l.position`,
      [c.main.id],
    );
    expect(got.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    const overlaps = got.slice(1).filter((r, i) => r.start < got[i].end);
    expect(overlaps).toEqual([]);
    expect(numbers).toHaveLength(WRITES);
  });
});
