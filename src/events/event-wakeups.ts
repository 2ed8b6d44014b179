import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { AuthNotices } from '../auth/auth-notices.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

/**
 * Wakes what waits for new events (delivery loops, long polls): at once on the notice every
 * commit of events sends (the instance's listening connection, see AuthNotices), else after
 * EVENTS_POLL_MS at most (no listening connection: the embedded database, AUTH_NOTICES=false,
 * a connection being re-established).
 */
@Injectable()
export class EventWakeups implements OnModuleDestroy {
  private waiters = new Set<() => void>();
  private readonly listeners = new Set<() => void>();
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    notices: AuthNotices,
  ) {
    notices.subscribe({ user: () => {}, throttled: () => {}, resumed: () => this.wake(), changes: () => this.wake() });
  }

  /** Calls `listener` on every wake-up until the returned function is called. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves at the next wake-up, after `ms`, after EVENTS_POLL_MS, or when `cancel` aborts,
   * whichever comes first (a long poll whose client went away gives its place back at once).
   */
  next(ms: number, cancel?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        cancel?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, Math.min(ms, this.config.eventsPollMs)));
      this.waiters.add(done);
      if (cancel?.aborted) done();
      else cancel?.addEventListener('abort', done, { once: true });
    });
  }

  /** Set once the instance shuts down: long polls answer what they have instead of waiting on. */
  get closing(): boolean {
    return this.stopping;
  }

  /**
   * The instance stops taking requests: waits end now, so a long poll does not hold the shutdown
   * (which lets in-flight requests finish first) for up to its `wait`.
   */
  close(): void {
    this.stopping = true;
    this.wake();
  }

  /** Something may have new events: every waiter and listener looks. */
  wake(): void {
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const w of waiters) w();
    for (const l of this.listeners) l();
  }

  onModuleDestroy(): void {
    this.close();
  }
}
