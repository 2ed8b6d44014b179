import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PeriodicTask } from '../../common/periodic-task.js';
import { requestsInFlight, type RequestsInFlight } from '../../common/requests-in-flight.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { EventWakeups } from '../event-wakeups.js';
import { retryDelayMs } from '../webhooks/retry-backoff.js';
import { DeliveryRepository, type DeliveryLease } from './delivery.repository.js';
import { EventSenders } from './event-senders.js';
import { SubscriptionDelivery } from './subscription-delivery.js';
import { EventsRepository } from '../events.repository.js';
import { SubscriptionFilters } from '../subscriptions/subscription-filters.js';

/** Events of the log pruned per statement. */
const PRUNE_BATCH = 10_000;
const PRUNE_INTERVAL_MS = 60_000;
/** While the instance is busy: how long one loop delivers before it gives its turn and the instance rests. */
const BUSY_SLICE_MS = 250;

/**
 * Runs the delivery loops of this instance: leases due subscriptions (at most EVENTS_CONCURRENCY
 * at once; one instance per subscription, see DeliveryRepository.claim) whenever events are
 * committed or every EVENTS_POLL_MS, and prunes the log. Off with EVENTS_DELIVERY=false.
 *
 * While the instance is busy answering requests (EVENTS_BUSY_REQUESTS in flight on average)
 * delivery yields to them: a webhook call costs this process and the machine about a third of
 * what a write costs, so ten subscriptions delivering each write as it commits took a third or
 * more of the writes' rate. Then one subscription is delivered at a time, for a slice of
 * BUSY_SLICE_MS each (the one furthest behind next), and the instance rests between slices so
 * delivery runs EVENTS_BUSY_SHARE percent of the time. Events wait longer under load, in order and
 * at least once as always, and are caught up at full concurrency once the requests calm down.
 */
@Injectable()
export class DeliveryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EventDelivery');
  /** This instance, as leases name it. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly running = new Map<number, Promise<void>>();
  private readonly stopping = new AbortController();
  private claiming: Promise<void> | null = null;
  private again = false;
  /** Whether the last look found active subscriptions: notices only start a look while there are. */
  private active = true;
  /** The requests delivery yields to (the process's; a test may put its own). */
  load: Pick<RequestsInFlight, 'load'> = requestsInFlight;
  /** While the instance is busy: no turn starts before this (ms since the epoch). */
  private restUntil = 0;
  private restTimer?: NodeJS.Timeout;
  private poll?: PeriodicTask;
  private pruner?: PeriodicTask;
  private unlisten?: () => void;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: DeliveryRepository,
    private readonly events: EventsRepository,
    private readonly filters: SubscriptionFilters,
    private readonly senders: EventSenders,
    private readonly wakeups: EventWakeups,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.eventsDelivery) return;
    this.unlisten = this.wakeups.listen(() => this.kick());
    this.poll = new PeriodicTask({
      name: 'looking for events to deliver',
      intervalMs: this.config.eventsPollMs,
      run: async () => {
        this.active = await this.repo.anyActive();
        // Through kick, never beside a look under way: two looks at once both saw the same loops
        // running, and the second took again a lease the first had just taken (its own), so two
        // loops delivered one subscription, out of order.
        this.kick();
        await this.claiming;
      },
      logger: this.logger,
    });
    this.poll.start();
    this.pruner = new PeriodicTask({
      name: 'pruning delivered events',
      intervalMs: PRUNE_INTERVAL_MS,
      run: (signal) => this.prune(signal),
      logger: this.logger,
    });
    this.pruner.start();
    this.kick(true);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping.abort();
    this.unlisten?.();
    clearTimeout(this.restTimer);
    await Promise.all([this.poll?.stop(), this.pruner?.stop()]);
    await this.claiming;
    await Promise.all(this.running.values());
    if (this.config.eventsDelivery) await this.repo.releaseAll(this.owner).catch(() => undefined);
  }

  /**
   * Looks for due subscriptions now (one look at a time; a kick during one makes another). Commit
   * notices kick every instance: while no subscription is active, only the poll looks (and a
   * subscription made or resumed here kicks with `force`).
   */
  kick(force = false): void {
    if (this.stopping.signal.aborted || !(this.active || force)) return;
    if (force) this.active = true;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.claim()
      .catch((e: unknown) => this.logger.warn(`looking for events to deliver failed: ${(e as Error).message}`))
      .finally(() => {
        this.claiming = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Whether the instance is busy enough answering requests for delivery to yield to them. */
  private busy(): boolean {
    const from = this.config.eventsBusyRequests;
    return from > 0 && this.load.load() >= from;
  }

  private async claim(): Promise<void> {
    const busy = this.busy();
    if (busy && Date.now() < this.restUntil) {
      // Resting: the notices that come meanwhile cost no look; one look when the rest is over.
      this.restTimer ??= setTimeout(() => {
        this.restTimer = undefined;
        this.kick();
      }, this.restUntil - Date.now());
      this.restTimer.unref();
      return;
    }
    const free = (busy ? 1 : this.config.eventsConcurrency) - this.running.size;
    if (free <= 0 || this.stopping.signal.aborted) return;
    const leases = await this.repo.claim(this.owner, this.config.eventsLeaseMs, free, [...this.running.keys()]);
    for (const lease of leases) if (!this.running.has(lease.id)) this.start(lease);
  }

  private start(lease: DeliveryLease): void {
    // A claim renews this instance's own leases too: one loop per subscription.
    if (this.running.has(lease.id)) return;
    const loop = new SubscriptionDelivery(lease, {
      owner: this.owner,
      config: this.config,
      repo: this.repo,
      events: this.events,
      senders: this.senders,
      filter: () => this.filters.of(lease),
      backoff: (attempt) => retryDelayMs(attempt, this.config.eventsRetryBaseMs, this.config.eventsRetryMaxMs),
      signal: this.stopping.signal,
      // Loops started before the instance got busy give their turn at once, the one left after its slice.
      yields: () => this.busy() && (this.running.size > 1 || Date.now() - started >= BUSY_SLICE_MS),
    });
    const started = Date.now();
    const run = loop
      .run()
      .catch((e: unknown) => this.logger.warn(`delivering subscription ${lease.id} failed: ${(e as Error).message}`))
      .finally(() => {
        if (this.running.get(lease.id) === run) this.running.delete(lease.id);
        if (loop.yielded) {
          // Delivery ran for `took`; it rests so that it runs EVENTS_BUSY_SHARE percent of the time.
          const took = Math.min(Date.now() - started, BUSY_SLICE_MS);
          const rest = (took * (100 - this.config.eventsBusyShare)) / this.config.eventsBusyShare;
          this.restUntil = Math.max(this.restUntil, Date.now() + rest);
        }
        this.kick();
      });
    this.running.set(lease.id, run);
  }

  private async prune(signal: AbortSignal): Promise<void> {
    const before = new Date(Date.now() - this.config.eventsRetentionHours * 3_600_000);
    while (!signal.aborted && (await this.events.prune(before, PRUNE_BATCH)) === PRUNE_BATCH);
  }
}
