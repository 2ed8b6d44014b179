import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';

/** Uploads whose running hash one instance keeps at most (the oldest are forgotten first). */
const MAX_KEPT = 10_000;

/**
 * The running SHA-256 of resumable uploads under way on this instance, each with the offset it
 * has taken in, so that completing an upload needs no second read of its bytes. An upload
 * whose hash is not here (this instance restarted, another one took its parts, or the offsets
 * differ) has it computed again from its stored bytes.
 */
export class UploadHashes {
  private readonly kept = new Map<string, { offset: number; hash: Hash }>();

  /**
   * A hash of the first `offset` bytes of the upload, to carry on with: a copy of the one kept
   * (which stays as it was should the part fail), or else computed from `stored()`, the bytes
   * stored so far.
   */
  async at(id: string, offset: number, stored: () => Promise<Readable | null>): Promise<Hash> {
    const known = this.kept.get(id);
    if (known?.offset === offset) return known.hash.copy();
    this.kept.delete(id);
    const hash = createHash('sha256');
    const bytes = offset > 0 ? await stored() : null;
    let read = 0;
    if (bytes) {
      for await (const piece of bytes as AsyncIterable<Buffer>) {
        hash.update(piece);
        read += piece.length;
      }
    }
    if (read !== offset) throw new Error(`resumable upload ${id}: ${read} bytes stored, not ${offset}`);
    return hash;
  }

  /** Keeps the hash of the first `offset` bytes (which the caller no longer updates). */
  keep(id: string, offset: number, hash: Hash): void {
    this.kept.delete(id);
    this.kept.set(id, { offset, hash });
    if (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
  }

  drop(id: string): void {
    this.kept.delete(id);
  }

  /** Forgets every hash (as a restart would). */
  clear(): void {
    this.kept.clear();
  }
}
