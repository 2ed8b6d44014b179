/**
 * Slows down password guessing. Attempts are counted per (user name, client address) and per
 * client address before the password is checked (a reservation), and given back when the
 * password was right: so parallel guesses cannot all pass a check made before any of them
 * failed. Past the limit within the window, further attempts from that pair (or that address)
 * are refused until the window has passed. A real user at another address is never locked out
 * by someone else's guesses.
 */
export class FailureThrottle {
  private readonly byKey = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly addressLimitFactor = 10,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before trying again, or 0 when an attempt may go ahead. */
  retryAfter(name: string, address: string): number {
    const t = this.now();
    return Math.max(
      this.waitFor(pairKey(name, address), this.limit, t),
      this.waitFor(addressKey(address), this.limit * this.addressLimitFactor, t),
    );
  }

  /**
   * Counts an attempt about to be checked, unless the limit is reached: then nothing is counted
   * and the seconds to wait are returned. 0 means the attempt was counted and may go ahead.
   */
  reserve(name: string, address: string): number {
    const wait = this.retryAfter(name, address);
    if (wait > 0) return wait;
    const t = this.now();
    this.bump(pairKey(name, address), t);
    this.bump(addressKey(address), t);
    if (this.byKey.size > 100_000) this.sweep(t);
    return 0;
  }

  /** The reserved attempt was right: the pair's failures are forgotten, the address's attempt given back. */
  refund(name: string, address: string): void {
    this.byKey.delete(pairKey(name, address));
    const entry = this.byKey.get(addressKey(address));
    if (entry && entry.count > 0) entry.count--;
  }

  private waitFor(key: string, limit: number, t: number): number {
    const entry = this.byKey.get(key);
    if (!entry || entry.resetAt <= t || entry.count < limit) return 0;
    return Math.max(1, Math.ceil((entry.resetAt - t) / 1000));
  }

  private bump(key: string, t: number): void {
    const entry = this.byKey.get(key);
    if (!entry || entry.resetAt <= t) this.byKey.set(key, { count: 1, resetAt: t + this.windowMs });
    else entry.count++;
  }

  private sweep(t: number): void {
    for (const [k, v] of this.byKey) if (v.resetAt <= t) this.byKey.delete(k);
  }
}

const pairKey = (name: string, address: string) => `u:${name}\u0000${address}`;
const addressKey = (address: string) => `a:${address}`;
