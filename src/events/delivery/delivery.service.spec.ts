import type { AppConfig } from '../../config/app-config.js';
import type { EventWakeups } from '../event-wakeups.js';
import type { EventsRepository } from '../events.repository.js';
import type { SubscriptionFilters } from '../subscriptions/subscription-filters.js';
import type { DeliveryLease, DeliveryRepository } from './delivery.repository.js';
import { DeliveryService } from './delivery.service.js';
import type { EventSenders } from './event-senders.js';

const LEASE: DeliveryLease = {
  id: 1,
  ownerId: 2,
  ownerAdmin: true,
  ownerDisabled: false,
  actions: ['*'],
  containerId: null,
  type: null,
  state: null,
  targetKind: 'webhook',
  target: 'http://127.0.0.1:9/hook',
  secret: null,
  cursor: 0n,
  attempts: 0,
};

/**
 * A claim takes a while (a database round trip), and answers the subscription to any look that
 * does not name it busy, as DeliveryRepository.claim does for the instance's own lease.
 */
function fakes() {
  let loops = 0;
  let claims = 0;
  let stalled = (): void => undefined;
  const stall = new Promise<void>((resolve) => (stalled = resolve));
  const repo = {
    anyActive: () => Promise.resolve(true),
    claim: async (_owner: string, _ms: number, _limit: number, busy: readonly number[]) => {
      claims += 1;
      await new Promise((r) => setTimeout(r, 30));
      return busy.includes(LEASE.id) ? [] : [LEASE];
    },
    requeued: () => Promise.resolve([]),
    release: () => Promise.resolve(),
    releaseAll: () => Promise.resolve(),
  } as unknown as DeliveryRepository;
  const events = {
    byIds: () => Promise.resolve([]),
    // The loop waits here until the test ends: it stays running meanwhile.
    window: () => stall.then(() => []),
  } as unknown as EventsRepository;
  const filters = {
    of: () => {
      loops += 1;
      return Promise.resolve({ actions: ['*'], containerId: null, typeMatches: null, state: null });
    },
  } as unknown as SubscriptionFilters;
  const wakeups = { listen: () => () => undefined } as unknown as EventWakeups;
  const config = {
    eventsDelivery: true,
    eventsPollMs: 10,
    eventsConcurrency: 8,
    eventsLeaseMs: 1000,
    eventsRetentionHours: 1,
    eventsRetryBaseMs: 10,
    eventsRetryMaxMs: 10,
    eventsMaxAttempts: 3,
    eventsSource: 'urn:test',
  } as AppConfig;
  const service = new DeliveryService(config, repo, events, filters, {} as EventSenders, wakeups);
  return { service, loops: () => loops, claims: () => claims, release: () => stalled() };
}

describe('DeliveryService', () => {
  it('runs one loop per subscription however its polls and notices overlap', async () => {
    const f = fakes();
    f.service.onApplicationBootstrap();
    for (let i = 0; i < 5; i++) f.service.kick();
    const until = Date.now() + 5_000;
    while (f.claims() < 6 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    expect(f.claims()).toBeGreaterThanOrEqual(6);
    expect(f.loops()).toBe(1);
    f.release();
    await f.service.onModuleDestroy();
  });
});
