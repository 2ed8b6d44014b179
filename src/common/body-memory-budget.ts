/**
 * The bytes of request bodies held in memory at once, across all requests (BODY_MEMORY_BUDGET).
 * A body is given its bytes before the first one is read and gives them back when its request
 * is over; one that does not fit now is refused (503) rather than waited for, so memory never
 * grows past the budget however many clients send at once.
 */
export class BodyMemoryBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  /** Takes `bytes` if they fit; the returned function gives them back (only once, however often called). */
  reserve(bytes: number): (() => void) | null {
    if (bytes > this.limit - this.used) return null;
    this.used += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= bytes;
    };
  }

  get inUse(): number {
    return this.used;
  }
}
