/**
 * Work that must not overlap for one key takes turns here, in arrival order, holding nothing
 * meanwhile (above all no database connection): a burst for one key leaves the pool to everyone
 * else. A turn not reached within `timeoutMs` fails with `busy()`; its place passes on to those
 * after it, which still wait for the work before it.
 */
export class Turns<K> {
  /** Per key: settles once every piece of work that took a turn on it so far is done. */
  private readonly tails = new Map<K, Promise<void>>();

  constructor(
    readonly timeoutMs: number,
    private readonly busy: () => Error,
  ) {}

  async inTurn<T>(key: K, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    try {
      await this.waitAtMost(before);
      return await work();
    } finally {
      done();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  private async waitAtMost(turn: Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.busy()), this.timeoutMs);
    });
    try {
      await Promise.race([turn, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
