import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { openChunkCopy } from '../stores/blob-chunks.repository.js';
import type { StoreName } from '../stores/blob-store.js';
import type { BlobsRepository } from '../stores/blobs.repository.js';
import { COPY_HEADER, COPY_TRAILER, rowHeader } from '../stores/chunk-copy.js';
import { CHUNK_SIZE } from '../stores/chunk-writer.js';

/** Takes the pieces of a body as they are received; `accepted` is called when the next may come. */
export interface UploadTee {
  write(piece: Buffer, accepted: () => void): void;
}

/**
 * A large raw upload copied into the postgres store while it is being received, so that the
 * network, the hashing and PostgreSQL work at the same time instead of one after the other,
 * and the bytes are written once, not spooled to a file and read back first.
 *
 * Its SHA-256 is known only at the end, so the chunks are copied under a temporary key, that of
 * a content_blobs row only this transaction sees. Once the body is in and its digests checked,
 * they take the blob's key: an UPDATE of the key column only, which leaves the chunk bytes
 * (stored out of line) where they are. When the blob is stored already, they go with the
 * temporary row. Everything is one transaction of the upload's own: a client that goes away, a
 * failure or a killed process leave nothing.
 *
 * It holds a pooled connection, and a transaction open, for as long as the client takes to
 * send the body (HTTP_REQUEST_TIMEOUT_MS at most: the statement timeout, meant for queries, is
 * lifted for it), so the caller lets only a few uploads stream at once.
 */
export class StreamedBlob implements UploadTee {
  private readonly copy: Writable;
  private position = 0;
  private seq = 0;
  private failure: Error | null = null;
  /** The COPY ended in an error: the server has left it, nothing to cancel. */
  private copyFailed = false;
  private pending: (() => void) | null = null;
  /** Whether the transaction was told to commit or to roll back. */
  private decided = false;

  private constructor(
    private readonly blobs: BlobsRepository,
    private readonly client: pg.PoolClient,
    private readonly key: Buffer,
    private readonly length: number,
    /** Ends the transaction, which waits for this: commit (resolve) or roll back (reject). */
    private readonly decide: { commit: () => void; rollBack: (e: Error) => void },
    /** The transaction: settled once it has ended and its connection is back in the pool. */
    private readonly done: Promise<void>,
  ) {
    this.copy = openChunkCopy(client, 4 * CHUNK_SIZE);
    this.copy.on('error', (e: Error) => {
      this.copyFailed = true;
      this.fail(e);
    });
    this.copy.write(COPY_HEADER);
  }

  /**
   * Begins the transaction, its temporary row and the COPY on a connection of the repository's
   * pool. The transaction (inPgTransaction) stays open until finish or abandon decide its end;
   * `onClose` is called once its connection is released.
   */
  static start(blobs: BlobsRepository, length: number, onClose: () => void): Promise<StreamedBlob> {
    // Never a SHA-256 (64 hex digits), nor another upload's.
    const key = `upload ${randomUUID()}`.padEnd(64);
    return new Promise((resolve, reject) => {
      const done = blobs.transaction(async (client) => {
        await blobs.openStreamedUpload(client, key, length);
        await new Promise<void>((commit, rollBack) => {
          resolve(new StreamedBlob(blobs, client, Buffer.from(key, 'latin1'), length, { commit, rollBack }, done));
        });
      });
      // onClose first: a start that failed has released its connection when the caller hears of it.
      done.finally(onClose).catch(() => undefined);
      done.catch(reject); // only before the blob was handed out: a settled promise ignores it after
    });
  }

  /** Frames the piece into the COPY rows of 256 KiB chunks (the length is known in advance). */
  write(piece: Buffer, accepted: () => void): void {
    if (this.failure || this.position >= this.length) return accepted();
    let ok = true;
    for (let at = 0; at < piece.length && this.position < this.length;) {
      const inChunk = this.position % CHUNK_SIZE;
      if (inChunk === 0) {
        const size = Math.min(CHUNK_SIZE, this.length - this.position);
        ok = this.copy.write(rowHeader(this.key, this.seq++, size));
      }
      const take = Math.min(piece.length - at, CHUNK_SIZE - inChunk, this.length - this.position);
      ok = this.copy.write(piece.subarray(at, at + take));
      at += take;
      this.position += take;
    }
    if (this.position === this.length) ok = this.copy.write(COPY_TRAILER);
    if (ok || this.failure) return accepted();
    this.pending = accepted;
    this.copy.once('drain', () => this.resume());
  }

  /**
   * Ends the COPY and gives the chunks the blob's key, then commits as BlobWriter.save
   * does (asynchronously, see BlobsRepository.upsertPostgres).
   * When the blob is recorded already, the chunks are dropped; but when it is recorded in
   * another store that does not hold it (`holds`), the blob moves to this one, with them. Fails
   * (rolled back) with what made the stream fail, when it did.
   */
  async finish(sha256: string, holds: (store: StoreName) => Promise<boolean>): Promise<void> {
    try {
      if (this.failure) throw this.failure;
      if (this.position !== this.length) throw new Error(`the stream took ${this.position} of ${this.length} bytes`);
      this.copy.end();
      await finished(this.copy);
      await this.blobs.adoptChunks(this.client, this.key.toString('latin1'), sha256, this.length, holds);
    } catch (e) {
      this.fail(e as Error);
      await this.abandon();
      throw e;
    }
    this.decided = true;
    this.decide.commit();
    await this.done.catch((e: Error) => {
      this.fail(e);
      throw e;
    });
  }

  /** Rolls back what the stream wrote, unless it has finished; safe to call more than once. */
  async abandon(): Promise<void> {
    if (!this.decided) {
      this.decided = true;
      // A COPY still under way is cancelled first (CopyFail), or the ROLLBACK would wait behind it.
      if (!this.copyFailed && !this.copy.writableFinished) this.copy.destroy();
      this.decide.rollBack(this.failure ?? new Error('the streamed upload was abandoned'));
    }
    await this.done.catch(() => undefined);
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.resume();
  }

  private resume(): void {
    const accepted = this.pending;
    this.pending = null;
    accepted?.();
  }
}
