import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PeriodicTask } from '../../common/periodic-task.js';
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

/**
 * Runs the delivery loops of this instance: leases due subscriptions (at most EVENTS_CONCURRENCY
 * at once; one instance per subscription, see DeliveryRepository.claim) whenever events are
 * committed or every EVENTS_POLL_MS, and prunes the log. Off with EVENTS_DELIVERY=false.
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

  private async claim(): Promise<void> {
    const free = this.config.eventsConcurrency - this.running.size;
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
    });
    const run = loop
      .run()
      .catch((e: unknown) => this.logger.warn(`delivering subscription ${lease.id} failed: ${(e as Error).message}`))
      .finally(() => {
        if (this.running.get(lease.id) === run) this.running.delete(lease.id);
        this.kick();
      });
    this.running.set(lease.id, run);
  }

  private async prune(signal: AbortSignal): Promise<void> {
    const before = new Date(Date.now() - this.config.eventsRetentionHours * 3_600_000);
    while (!signal.aborted && (await this.events.prune(before, PRUNE_BATCH)) === PRUNE_BATCH);
  }
}
