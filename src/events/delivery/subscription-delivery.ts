import type { AppConfig } from '../../config/app-config.js';
import type { DeliveryOutcome } from '../cloud-event.js';
import { filterMatches, toCloudEvent, type EventFilter, type EventRecord } from '../event-record.js';
import type { EventsRepository } from '../events.repository.js';
import type { DeliveryLease, DeliveryRepository } from './delivery.repository.js';
import type { EventSenders } from './event-senders.js';

/** Log events read at a time: what a loop holds in memory, however slow its receiver. */
const WINDOW = 200;
/** The longest a loop goes on without writing its cursor (and renewing its lease; at most a third of it). */
const CURSOR_WRITE_MS = 1000;
/** Requeued dead letters tried per lease. */
const LETTERS = 100;

export interface DeliveryContext {
  owner: string;
  config: Pick<AppConfig, 'eventsLeaseMs' | 'eventsMaxAttempts' | 'eventsSource'>;
  repo: DeliveryRepository;
  events: EventsRepository;
  senders: EventSenders;
  filter: () => Promise<EventFilter>;
  backoff: (attempt: number) => number;
  signal: AbortSignal;
  /** Whether the loop should give its turn before its next event (the instance is busy: others take turns). */
  yields?: () => boolean;
}

/**
 * One subscription's delivery while this instance holds its lease: requeued dead letters first,
 * then the log after the cursor, one event at a time in log (commit) order. The cursor moves
 * past an event once its destination acknowledged it (at least once: a crash between the two
 * sends it again), past events the filter or the owner's rights leave out, and past an event given
 * up on (a dead letter). A failed attempt ends the lease until its backoff has passed; a 410 or a
 * disabled owner pauses the subscription.
 */
export class SubscriptionDelivery {
  private readonly lease: DeliveryLease;

  constructor(
    lease: DeliveryLease,
    private readonly ctx: DeliveryContext,
  ) {
    this.lease = lease;
  }

  async run(): Promise<void> {
    const { repo, owner, config } = this.ctx;
    const id = this.lease.id;
    let holding = false;
    // The lease is renewed while the loop runs, not only when the cursor moves: a call that takes
    // long (up to EVENTS_WEBHOOK_TIMEOUT_MS, or a stall) must not let another instance start
    // delivering beside it. A renewal that finds the lease gone stops the loop before its next send.
    const beat = setInterval(
      () => {
        Promise.resolve()
          .then(() => repo.renew(id, owner, config.eventsLeaseMs))
          .then(
            (held) => (this.lost ||= !held),
            () => undefined, // a failed renewal (database down) is tried again; the cursor update fences anyway
          );
      },
      Math.max(100, Math.floor(config.eventsLeaseMs / 3)),
    );
    beat.unref();
    try {
      if (this.lease.ownerDisabled) {
        await repo.pause(id, owner, 'paused: the owner is disabled');
        return;
      }
      holding = (await this.letters()) && (await this.log());
    } catch (e) {
      holding = true;
      throw e;
    } finally {
      clearInterval(beat);
      if (holding && !this.lost) await repo.release(id, owner);
    }
  }

  /** The lease was found taken by another instance: this loop sends nothing more. */
  private lost = false;

  /** The loop gave its turn (yields), its cursor written, with events possibly left to deliver. */
  yielded = false;

  private get stopped(): boolean {
    return this.lost || this.ctx.signal.aborted;
  }

  private get reader() {
    return { userId: this.lease.ownerId, admin: this.lease.ownerAdmin };
  }

  private send(e: EventRecord): Promise<DeliveryOutcome> {
    const { targetKind: kind, target, secret } = this.lease;
    return this.ctx.senders.send({ kind, target, secret }, toCloudEvent(e, this.ctx.config.eventsSource));
  }

  /** Requeued dead letters, each tried once; false when the subscription was paused. */
  private async letters(): Promise<boolean> {
    const { repo, events, owner } = this.ctx;
    const letters = await repo.requeued(this.lease.id, LETTERS);
    const records = new Map(
      (
        await events.byIds(
          letters.map((l) => l.eventId),
          this.reader,
        )
      ).map((r) => [r.id, r]),
    );
    for (const letter of letters) {
      if (this.stopped) return true;
      const record = records.get(BigInt(letter.eventId));
      if (!record?.visible) {
        await repo.letterFailed(letter.id, 'the owner may not read this event (or it is gone)');
        continue;
      }
      const outcome = await this.send(record);
      if (outcome.kind === 'delivered') await repo.letterDelivered(this.lease.id, letter.id);
      else await repo.letterFailed(letter.id, outcome.error);
      if (outcome.kind === 'gone') {
        await repo.pause(this.lease.id, owner, `paused: ${outcome.error}`);
        return false;
      }
    }
    return true;
  }

  /** The log after the cursor; false when the lease ended here (lost, backoff, pause). */
  private async log(): Promise<boolean> {
    const { repo, events, owner, config } = this.ctx;
    const id = this.lease.id;
    const filter = await this.ctx.filter();
    // The cursor in the database and what was handled beyond it: acknowledged events are written
    // together (at the window's end, before a failure is recorded, and at least every
    // CURSOR_WRITE_MS), not one statement and commit each, which limited a loop to the database's
    // commit rate and cost every write of the service as much. A crash re-sends what was
    // acknowledged since the last write: at least once, as before.
    let cursor = BigInt(this.lease.cursor);
    let handled = cursor;
    let acked = 0;
    let written = Date.now();
    const every = Math.min(CURSOR_WRITE_MS, config.eventsLeaseMs / 3);
    const flush = async (): Promise<boolean> => {
      if (handled <= cursor) return true;
      if (!(await repo.advance(id, owner, handled, acked, config.eventsLeaseMs))) return false;
      cursor = handled;
      acked = 0;
      written = Date.now();
      return true;
    };
    let attempts = this.lease.attempts;
    let sent = 0;
    while (!this.stopped) {
      const window = await events.window(handled, WINDOW, this.reader);
      if (window.length === 0) return flush();
      for (const e of window) {
        if (this.stopped) return this.lost ? false : flush();
        if (!e.visible || !filterMatches(filter, e)) continue;
        if (sent > 0 && this.ctx.yields?.()) {
          this.yielded = true;
          return flush();
        }
        sent += 1;
        const outcome = await this.send(e);
        if (outcome.kind === 'delivered') {
          handled = e.position;
          acked += 1;
          attempts = 0;
          if (Date.now() - written >= every && !(await flush())) return false;
          continue;
        }
        if (!(await flush())) return false;
        if (outcome.kind === 'gone') {
          await repo.pause(id, owner, `paused: ${outcome.error}`);
          return false;
        }
        attempts += 1;
        if (outcome.kind === 'rejected' || attempts >= config.eventsMaxAttempts) {
          const error = `${outcome.error} (attempt ${attempts})`;
          if (!(await repo.deadLetter(id, owner, e.id, e.position, attempts, error))) return false;
          cursor = handled = e.position;
          attempts = 0;
          continue;
        }
        await repo.failed(id, owner, attempts, new Date(Date.now() + this.ctx.backoff(attempts)), outcome.error);
        return false;
      }
      // Past the events the filter or the owner's rights left out, too.
      handled = window[window.length - 1].position;
      if (!(await flush())) return false;
      if (sent > 0 && this.ctx.yields?.()) {
        this.yielded = true;
        return true;
      }
    }
    return flush();
  }
}
