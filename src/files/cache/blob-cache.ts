import { LRUCache } from 'lru-cache';

/**
 * Small blobs read lately, by SHA-256, kept in memory up to a byte budget; the least recently
 * used go first. Stored bytes never change (a blob is named by its hash), so a cached copy is
 * never stale, and several service instances need no coordination. Who may read a file is
 * decided per request before its bytes are looked up here.
 */
export class BlobCache {
  /** Null when the budget is 0 (lru-cache needs a positive size). */
  private readonly blobs: LRUCache<string, Buffer> | null;
  /**
   * The hash of the empty blob, once read. lru-cache counts every entry at least one byte; the
   * empty blob (all empty files share its hash) costs nothing, so it is kept aside.
   */
  private emptyHash: string | null = null;

  /**
   * @param budget bytes held at most (0: nothing is cached)
   * @param largest the largest blob cached; bigger ones are always streamed from the database
   */
  constructor(
    readonly budget: number,
    readonly largest: number,
  ) {
    this.blobs = budget > 0 ? new LRUCache({ maxSize: budget, sizeCalculation: (bytes) => bytes.length }) : null;
  }

  /** Whether a blob of this size is cached once read. */
  takes(size: number): boolean {
    return size <= this.largest && size <= this.budget && this.budget > 0;
  }

  get(sha256: string): Buffer | undefined {
    if (sha256 === this.emptyHash) return Buffer.alloc(0);
    return this.blobs?.get(sha256);
  }

  set(sha256: string, bytes: Buffer): void {
    if (!this.takes(bytes.length)) return;
    if (bytes.length === 0) this.emptyHash = sha256;
    else if (!this.blobs!.has(sha256)) this.blobs!.set(sha256, bytes);
  }

  /** Bytes held now. */
  get size(): number {
    return this.blobs?.calculatedSize ?? 0;
  }
}
