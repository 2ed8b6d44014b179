import pg from 'pg';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import {
  call,
  cursors,
  endInstance,
  killInstance,
  leaseHolder,
  logAfter,
  running,
  startInstance,
  waitForCursorsAtHead,
  writeBurst,
  type Instance,
} from './delivery-instances.js';
import { eventsContainers, type User } from './events-fixtures.js';
import { WebhookReceiver, type Received } from './webhook-receiver.js';

const WRITES = 1000;
/** The kill comes once this many writes were answered, while the rest are still to come. */
const KILL_AFTER = 400;

interface Sub {
  path: string;
  id: number;
  /** The cursor it was made with: it delivers what the log holds after it. */
  from: bigint;
  /** Which log events it selects. */
  selects: (e: { action: string; containerId: number | null }) => boolean;
}

/**
 * Two service processes deliver three webhook subscriptions while 1 000 writes go through both;
 * the one delivering the first subscription is killed (SIGKILL) while the receiver holds one of
 * its calls unanswered, so that event reached the receiver but its acknowledgement never reached
 * the database. The other instance takes the leases over once they expire and goes on. Afterwards
 * each subscription got every event it selects, first deliveries in log order, and repeats only of
 * events after the cursor the killed instance had committed: at least once, nothing lost.
 */
describe('change events when an instance is killed during a burst', () => {
  let scratch: ScratchDatabase;
  let db: pg.Pool;
  let receiver: WebhookReceiver;
  let a: Instance;
  let b: Instance;
  let restarted: Instance | undefined;
  let c: Awaited<ReturnType<typeof eventsContainers>>;
  const subs: Sub[] = [];
  /** Each subscription's cursor right after the kill. */
  let atKill = new Map<number, bigint>();

  beforeAll(async () => {
    scratch = await scratchDatabase({ demo: true });
    db = new pg.Pool({ connectionString: scratch.url, max: 3 });
    db.on('error', () => undefined);
    receiver = await WebhookReceiver.start();
    c = await eventsContainers(db, 'kill');
    [a, b] = await Promise.all([startInstance('A', scratch.url), startInstance('B', scratch.url)]);
  }, 120_000);

  afterAll(async () => {
    for (const i of [a, b, restarted]) await endInstance(i);
    await receiver?.close();
    await db?.end();
    await scratch?.drop();
  });

  async function subscribe(user: User, path: string, body: object, selects: Sub['selects']): Promise<void> {
    // Its cursor starts at the head when it is made (nothing else writes meanwhile); read before,
    // as delivery may move it at once.
    const { head } = await cursors(db, []);
    const res = await call(a, user, 'POST', '/events/subscriptions', { ...body, name: path, url: receiver.url(path) });
    const created = (await res.json()) as { id: number };
    expect(res.status).toBe(201);
    subs.push({ path, id: created.id, from: head, selects });
  }

  /**
   * Checks one subscription's deliveries against the log (`repeatsAfter`: repeats may only be of
   * events after this position); answers how many events it selects and how many calls repeated one.
   */
  async function checkDeliveries(sub: Sub, repeatsAfter: bigint): Promise<{ events: number; repeats: number }> {
    const expected = (await logAfter(db, sub.from)).filter(sub.selects);
    const got = receiver.on(sub.path);
    const positions = new Map(expected.map((e) => [e.id, e.position]));
    // Nothing it does not select, each with its place in the log as `sequence`.
    expect(got.filter((r) => positions.get(r.event.id) !== BigInt(r.event.sequence ?? -1))).toEqual([]);
    const seen = new Set<string>();
    const firsts: Received[] = [];
    const repeats: Received[] = [];
    for (const r of got) {
      (seen.has(r.event.id) ? repeats : firsts).push(r);
      seen.add(r.event.id);
    }
    // Every event it selects, none missing.
    expect(expected.filter((e) => !seen.has(e.id)).map((e) => e.id)).toEqual([]);
    // First deliveries strictly in log order.
    const order = firsts.map((r) => BigInt(r.event.sequence!));
    expect(order.filter((p, k) => k > 0 && p <= order[k - 1])).toEqual([]);
    expect(firsts).toHaveLength(expected.length);
    // A repeat is of an event the killed instance may have sent but had not recorded as acknowledged.
    expect(repeats.filter((r) => BigInt(r.event.sequence!) <= repeatsAfter).map((r) => r.event.sequence)).toEqual([]);
    return { events: expected.length, repeats: repeats.length };
  }

  /** GET /events/stats: every subscription at the head, each of its events recorded as delivered once. */
  async function checkStats(on: Instance, head: bigint, events: Map<number, number>): Promise<void> {
    const res = await call(on, 'admin', 'GET', '/events/stats');
    const body = (await res.json()) as { head: string; subscriptions: { id: number }[] };
    expect(res.status).toBe(200);
    expect(body.head).toBe(String(head));
    for (const sub of subs) {
      expect(body.subscriptions.find((s) => s.id === sub.id)).toMatchObject({
        active: true,
        cursor: String(head),
        backlog: 0,
        deadLetters: 0,
        delivered: String(events.get(sub.id)),
      });
    }
  }

  it('delivers every event at least once and in log order per subscription across a SIGKILL', async () => {
    // Every event (the subscriptions' own creations too), an administrator's.
    await subscribe('admin', '/all', { actions: ['*'] }, () => true);
    // A container manager's, of one container's reservations.
    await subscribe(
      'carol',
      '/main',
      { actions: ['numbers.*'], container: c.main.name },
      (e) => e.action.startsWith('numbers.') && e.containerId === c.main.id,
    );
    // An administrator's, of the other container's reservations.
    await subscribe(
      'admin',
      '/other',
      { actions: ['numbers.generate'], container: c.other.name },
      (e) => e.action === 'numbers.generate' && e.containerId === c.other.id,
    );

    let armed = false;
    let held: Received | undefined;
    let killing: Promise<{ victim: Instance; at: Map<number, bigint> }> | undefined;
    // Once armed, the next call for /all is held unanswered and its sender killed.
    receiver.answer = (r) => {
      if (!armed || held || r.path !== '/all') return 200;
      held = r;
      killing = (async () => {
        const victim = await leaseHolder(db, subs[0].id, [a, b]);
        if (!victim) throw new Error('no instance holds the lease of /all while it delivers');
        await killInstance(victim);
        return {
          victim,
          at: (
            await cursors(
              db,
              subs.map((s) => s.id),
            )
          ).of,
        };
      })();
      return 'hang';
    };
    await writeBurst({
      count: WRITES,
      parallel: 6,
      instances: () => [a, b],
      containers: [c.main.name, c.other.name],
      after: (k) => {
        if (k === KILL_AFTER) armed = true;
      },
    });
    expect(killing).toBeDefined();
    const { victim, at } = await killing!;
    atKill = at;
    const survivor = victim === a ? b : a;
    expect(running(victim)).toBe(false);
    expect(running(survivor)).toBe(true);
    // The held event was not acknowledged: the cursor of /all stopped before it.
    expect(at.get(subs[0].id)!).toBeLessThan(BigInt(held!.event.sequence!));

    const head = await waitForCursorsAtHead(
      db,
      subs.map((s) => s.id),
    );
    const events = new Map<number, number>();
    for (const sub of subs) {
      const { events: n, repeats } = await checkDeliveries(sub, at.get(sub.id)!);
      events.set(sub.id, n);
      if (sub.path === '/all') expect(repeats).toBeGreaterThanOrEqual(1);
    }
    // The held event came again, from the survivor.
    expect(receiver.on('/all').filter((r) => r.event.id === held!.event.id).length).toBeGreaterThanOrEqual(2);
    expect(events.get(subs[1].id)).toBeGreaterThanOrEqual(WRITES / 2);
    await checkStats(survivor, head, events);
  }, 180_000);

  it('lets the killed instance rejoin and deliver alone', async () => {
    const victim = running(a) ? b : a;
    const survivor = victim === a ? b : a;
    restarted = await startInstance(`${victim.name} again`, scratch.url);
    await endInstance(survivor);
    const before = (await cursors(db, [subs[0].id])).head;
    await writeBurst({
      count: 20,
      parallel: 2,
      instances: () => [restarted!],
      containers: [c.main.name, c.other.name],
    });
    const head = await waitForCursorsAtHead(
      db,
      subs.map((s) => s.id),
    );
    const fresh = await logAfter(db, before);
    expect(fresh.filter((e) => e.action === 'numbers.generate')).toHaveLength(20);
    const got = receiver.on('/all').filter((r) => BigInt(r.event.sequence!) > before);
    expect(got.map((r) => r.event.id)).toEqual(fresh.map((e) => e.id));
    const events = new Map<number, number>();
    for (const sub of subs) events.set(sub.id, (await checkDeliveries(sub, atKill.get(sub.id)!)).events);
    await checkStats(restarted, head, events);
  }, 120_000);
});
