/**
 * Slows down password guessing. Failures are counted per (user name, client address) and per
 * client address; past the limit within the window, further attempts from that pair (or that
 * address) are refused until the window has passed. A real user at another address is never
 * locked out by someone else's guesses.
 */
export class FailureThrottle {
  private readonly byKey = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly addressLimitFactor = 10,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before trying again, or 0 when the attempt may go ahead. */
  retryAfter(name: string, address: string): number {
    const t = this.now();
    const waits = [
      this.waitFor(`u:${name}\u0000${address}`, this.limit, t),
      this.waitFor(`a:${address}`, this.limit * this.addressLimitFactor, t),
    ];
    return Math.max(...waits);
  }

  recordFailure(name: string, address: string): void {
    const t = this.now();
    this.bump(`u:${name}\u0000${address}`, t);
    this.bump(`a:${address}`, t);
    if (this.byKey.size > 100_000) this.sweep(t);
  }

  recordSuccess(name: string, address: string): void {
    this.byKey.delete(`u:${name}\u0000${address}`);
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
