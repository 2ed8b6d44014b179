import { HttpException } from '@nestjs/common';
import type { FailureThrottle } from './failure-throttle.js';

/**
 * First uses of one bearer credential that arrive together share one check. Each check counts
 * as an attempt before it is made (so parallel guesses get no more tries than the limit), so
 * without sharing, a burst of requests with one new, valid token (a script starting 32 workers)
 * would use up its address's limit by itself and get 429s. A request that joins a check under
 * way is first held to its own address's limit (read, not counted); if the check it joined was
 * refused for throttling at another address, it makes its own.
 */
export class SharedChecks<T> {
  private readonly pending = new Map<string, Promise<T>>();

  constructor(private readonly throttle: FailureThrottle) {}

  async run(
    key: string,
    throttleName: string,
    address: string,
    check: () => Promise<T>,
    throttled: (wait: number) => Error,
  ): Promise<T> {
    const pending = this.pending.get(key);
    if (!pending) return this.track(key, check());
    const wait = await this.throttle.retryAfter(throttleName, address);
    if (wait > 0) throw throttled(wait);
    try {
      return await pending;
    } catch (e) {
      if (e instanceof HttpException && e.getStatus() === 429) return check();
      throw e;
    }
  }

  private track(key: string, check: Promise<T>): Promise<T> {
    const tracked = check.finally(() => {
      if (this.pending.get(key) === tracked) this.pending.delete(key);
    });
    this.pending.set(key, tracked);
    return tracked;
  }
}
