import type { AppConfig } from '../../config/app-config.js';
import type { EventRecord } from '../event-record.js';
import type { EventWakeups } from '../event-wakeups.js';
import type { EventsRepository } from '../events.repository.js';
import type { SubscriptionFilters } from '../subscriptions/subscription-filters.js';
import type { DeliveryLease, DeliveryRepository } from './delivery.repository.js';
import { DeliveryService } from './delivery.service.js';
import type { EventSenders } from './event-senders.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const lease: DeliveryLease = {
  id: 1,
  ownerId: 1,
  ownerAdmin: true,
  ownerDisabled: false,
  actions: ['*'],
  containerId: null,
  type: null,
  state: null,
  targetKind: 'webhook',
  target: 'http://127.0.0.1:1/hook',
  secret: null,
  cursor: 0n,
  attempts: 0,
};

/** Delivery settings of the tests (EVENTS_*), with `more`. */
function testConfig(more: Partial<AppConfig> = {}): AppConfig {
  return {
    eventsDelivery: true,
    eventsPollMs: 10,
    eventsLeaseMs: 2000,
    eventsConcurrency: 8,
    eventsRetentionHours: 168,
    eventsRetryBaseMs: 50,
    eventsRetryMaxMs: 200,
    eventsMaxAttempts: 3,
    eventsSource: 'urn:test',
    ...more,
  } as AppConfig;
}

/** A delivery service over fakes; every subscription's filters let every event through. */
function deliveryService(parts: {
  config?: AppConfig;
  repo: DeliveryRepository;
  events: EventsRepository;
  wakeups: EventWakeups;
  senders?: EventSenders;
}): DeliveryService {
  const filters = {
    of: () => Promise.resolve({ actions: ['*'], containerId: null, typeMatches: null, state: null }),
  } as unknown as SubscriptionFilters;
  return new DeliveryService(
    parts.config ?? testConfig(),
    parts.repo,
    parts.events,
    filters,
    parts.senders ?? ({} as EventSenders),
    parts.wakeups,
  );
}

describe('the delivery service', () => {
  it('never looks for due subscriptions twice at once, nor runs two loops of one subscription', async () => {
    const seen = { claims: 0, maxClaims: 0, loops: 0, maxLoops: 0 };
    // The database answers the lease of subscription 1 to every look of this instance (its own
    // lease), slowly, as under load: polls and notices come while a look is under way.
    const repo = {
      anyActive: () => Promise.resolve(true),
      claim: async () => {
        seen.maxClaims = Math.max(seen.maxClaims, ++seen.claims);
        await sleep(20);
        seen.claims--;
        return [lease];
      },
      requeued: () => Promise.resolve([]),
      release: () => Promise.resolve(),
      releaseAll: () => Promise.resolve(),
    } as unknown as DeliveryRepository;
    const events = {
      byIds: () => Promise.resolve([]),
      window: async () => {
        seen.maxLoops = Math.max(seen.maxLoops, ++seen.loops);
        await sleep(30);
        seen.loops--;
        return [];
      },
      prune: () => Promise.resolve(0),
    } as unknown as EventsRepository;
    let notice = () => undefined as void;
    const wakeups = {
      listen: (l: () => void) => {
        notice = l;
        return () => undefined;
      },
    } as unknown as EventWakeups;
    const service = deliveryService({ repo, events, wakeups });
    service.onApplicationBootstrap();
    for (let i = 0; i < 60; i++) {
      notice();
      await sleep(5);
    }
    await service.onModuleDestroy();
    expect(seen.maxClaims).toBe(1);
    expect(seen.maxLoops).toBe(1);
  });

  /**
   * Three subscriptions far behind a long log, delivered by one instance whose requests in flight
   * are `load` (EVENTS_BUSY_REQUESTS 2): how many sends ran at once at most, and which
   * subscriptions were sent events.
   */
  async function deliverBehind(load: number) {
    const cursors = new Map([1, 2, 3].map((id) => [id, 0n]));
    const held = new Set<number>();
    const repo = {
      anyActive: () => Promise.resolve(true),
      // As the database does it: due ones not held, the furthest behind first.
      claim: (_owner: string, _ms: number, limit: number) => {
        const due = [...cursors.entries()]
          .filter(([id]) => !held.has(id))
          .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] - b[0]))
          .slice(0, limit);
        for (const [id] of due) held.add(id);
        return Promise.resolve(due.map(([id, cursor]) => ({ ...lease, id, cursor })));
      },
      requeued: () => Promise.resolve([]),
      advance: (id: number, _owner: string, position: bigint) => {
        cursors.set(id, position);
        return Promise.resolve(true);
      },
      renew: () => Promise.resolve(true),
      release: (id: number) => {
        held.delete(id);
        return Promise.resolve();
      },
      releaseAll: () => Promise.resolve(),
    } as unknown as DeliveryRepository;
    const record = (position: bigint) => ({ position, id: position, at: new Date(0), action: 'x', visible: true });
    const events = {
      byIds: () => Promise.resolve([]),
      window: (after: bigint) =>
        Promise.resolve(Array.from({ length: 20 }, (_, i) => record(after + BigInt(i + 1)) as unknown as EventRecord)),
      prune: () => Promise.resolve(0),
    } as unknown as EventsRepository;
    const seen = { sending: 0, maxSending: 0, targets: new Set<string>() };
    const senders = {
      send: async (target: { target: string }) => {
        seen.maxSending = Math.max(seen.maxSending, ++seen.sending);
        seen.targets.add(target.target);
        await sleep(2);
        seen.sending--;
        return { kind: 'delivered' };
      },
    } as unknown as EventSenders;
    const wakeups = { listen: () => () => undefined } as unknown as EventWakeups;
    const config = testConfig({ eventsBusyRequests: 2, eventsBusyShare: 50 });
    const service = deliveryService({ config, repo, events, wakeups, senders });
    // Each loop's lease names its subscription by its target, so the sends say whose they were.
    const claim = repo.claim.bind(repo);
    repo.claim = async (...args) => (await claim(...args)).map((l) => ({ ...l, target: `hook ${l.id}` }));
    service.load = { load: () => load };
    service.onApplicationBootstrap();
    // Long enough for several turns of a quarter of a second each (BUSY_SLICE_MS), rests between.
    await sleep(1500);
    await service.onModuleDestroy();
    return seen;
  }

  it('delivers one subscription at a time while the instance is busy answering requests, each in turn', async () => {
    const busy = await deliverBehind(10);
    expect(busy.maxSending).toBe(1);
    expect([...busy.targets].sort()).toEqual(['hook 1', 'hook 2', 'hook 3']);
  });

  it('delivers its subscriptions at once while it is not', async () => {
    const calm = await deliverBehind(0);
    expect(calm.maxSending).toBe(3);
    expect([...calm.targets].sort()).toEqual(['hook 1', 'hook 2', 'hook 3']);
  });
});
