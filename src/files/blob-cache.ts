/**
 * Small blobs read lately, by SHA-256, kept in memory up to a byte budget; the least recently
 * used go first. Stored bytes never change (a blob is named by its hash), so a cached copy is
 * never stale, and several service instances need no coordination. Who may read a file is
 * decided per request before its bytes are looked up here.
 */
export class BlobCache {
  private readonly entries = new Map<string, Buffer>();
  private held = 0;

  /**
   * @param budget bytes held at most (0: nothing is cached)
   * @param largest the largest blob cached; bigger ones are always streamed from the database
   */
  constructor(
    readonly budget: number,
    readonly largest: number,
  ) {}

  /** Whether a blob of this size is cached once read. */
  takes(size: number): boolean {
    return size <= this.largest && size <= this.budget && this.budget > 0;
  }

  get(sha256: string): Buffer | undefined {
    const bytes = this.entries.get(sha256);
    if (bytes) {
      // The map's order is the eviction order: a hit moves to the end.
      this.entries.delete(sha256);
      this.entries.set(sha256, bytes);
    }
    return bytes;
  }

  set(sha256: string, bytes: Buffer): void {
    if (!this.takes(bytes.length) || this.entries.has(sha256)) return;
    this.entries.set(sha256, bytes);
    this.held += bytes.length;
    for (const [key, old] of this.entries) {
      if (this.held <= this.budget) break;
      this.entries.delete(key);
      this.held -= old.length;
    }
  }

  /** Bytes held now. */
  get size(): number {
    return this.held;
  }
}
