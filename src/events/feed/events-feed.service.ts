import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { AuthUser } from '../../auth/auth-user.js';
import { HttpErrorWithHeaders } from '../../common/http-errors.js';
import { requestsInFlight } from '../../common/requests-in-flight.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { toCloudEvent } from '../event-record.js';
import { EventWakeups } from '../event-wakeups.js';
import { EventsRepository } from '../events.repository.js';
import type { FeedDto, FeedQueryDto } from './dto/feed.dto.js';

/** Log events read per statement for one answer: enough to fill it for a reader of a few containers. */
const SCAN = 1000;

/**
 * The pull feed: the events after a cursor that the caller may read, oldest first, waiting up to
 * `wait` seconds for one when there is none. A wait holds no database connection; each user may
 * hold EVENTS_FEED_WAITS_PER_USER waits on one instance (429 past it).
 */
@Injectable()
export class EventsFeedService {
  private readonly waits = new Map<number, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: EventsRepository,
    private readonly wakeups: EventWakeups,
  ) {}

  async read(caller: AuthUser, q: FeedQueryDto, closed: AbortSignal): Promise<FeedDto> {
    const limit = q.limit ?? 100;
    const waitMs = (q.wait ?? 0) * 1000;
    const bounds = await this.events.bounds();
    let after = q.after === undefined ? (bounds.first > 0n ? bounds.first - 1n : 0n) : BigInt(q.after);
    const missed = q.after !== undefined && bounds.first > after + 1n && bounds.first <= bounds.last;
    const reader = { userId: caller.id, admin: caller.admin };
    const until = Date.now() + waitMs;
    let holding = false;
    try {
      for (;;) {
        const window = await this.events.window(after, Math.max(SCAN, limit), reader);
        const visible = window.filter((e) => e.visible).slice(0, limit);
        if (visible.length === limit) after = visible[visible.length - 1].position;
        else if (window.length) after = window[window.length - 1].position;
        const more = window.length === Math.max(SCAN, limit);
        if (visible.length || more || closed.aborted || this.wakeups.closing || Date.now() >= until) {
          return {
            events: visible.map((e) => toCloudEvent(e, this.config.eventsSource)),
            cursor: String(after),
            missed,
          };
        }
        if (!holding) {
          this.hold(caller);
          holding = true;
        }
        // Waiting is not work: delivery need not yield to a long poll.
        const resume = requestsInFlight.waiting();
        try {
          await this.wakeups.next(until - Date.now(), closed);
        } finally {
          resume();
        }
      }
    } finally {
      if (holding) this.release(caller);
    }
  }

  private hold(caller: AuthUser): void {
    const n = this.waits.get(caller.id) ?? 0;
    if (n >= this.config.eventsFeedWaitsPerUser) {
      throw new HttpErrorWithHeaders(
        HttpStatus.TOO_MANY_REQUESTS,
        `${caller.name} holds ${n} waiting feed requests on this instance (EVENTS_FEED_WAITS_PER_USER); ` +
          'ask without wait, or after one has been answered',
        { 'Retry-After': '1' },
      );
    }
    this.waits.set(caller.id, n + 1);
  }

  private release(caller: AuthUser): void {
    const n = (this.waits.get(caller.id) ?? 1) - 1;
    if (n > 0) this.waits.set(caller.id, n);
    else this.waits.delete(caller.id);
  }
}
