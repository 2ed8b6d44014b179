import type { AppConfig } from '../../config/app-config.js';
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
    const config = {
      eventsDelivery: true,
      eventsPollMs: 10,
      eventsLeaseMs: 2000,
      eventsConcurrency: 8,
      eventsRetentionHours: 168,
      eventsRetryBaseMs: 50,
      eventsRetryMaxMs: 200,
      eventsMaxAttempts: 3,
      eventsSource: 'urn:test',
    } as AppConfig;
    const filters = {
      of: () => Promise.resolve({ actions: ['*'], containerId: null, typeMatches: null, state: null }),
    };
    const service = new DeliveryService(
      config,
      repo,
      events,
      filters as unknown as SubscriptionFilters,
      {} as EventSenders,
      wakeups,
    );
    service.onApplicationBootstrap();
    for (let i = 0; i < 60; i++) {
      notice();
      await sleep(5);
    }
    await service.onModuleDestroy();
    expect(seen.maxClaims).toBe(1);
    expect(seen.maxLoops).toBe(1);
  });
});
