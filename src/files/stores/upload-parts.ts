import type { Hash } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { insertChunk, openChunkCopy, takeChunk } from './blob-chunks.repository.js';
import type { BlobsRepository } from './blobs.repository.js';
import { COPY_HEADER, COPY_TRAILER, rowHeader } from './chunk-copy.js';
import { CHUNK_SIZE } from './chunk-writer.js';

/** A part of a resumable upload to append to its chunks. */
export interface UploadPart {
  /** The upload's key in content_blobs (uploadKey). */
  key: string;
  /** The declared length of the whole upload. */
  length: number;
  /** How many bytes its chunks hold: where the part starts. */
  offset: number;
  body: AsyncIterable<Buffer>;
  /** Takes every byte of the part, in order (the upload's running SHA-256). */
  hash: Hash;
}

/** What a part added; `failure` is what cut the body short, after what came was committed. */
export interface AppendedPart {
  received: number;
  failure?: unknown;
}

/**
 * Appends a part of a resumable upload to the chunks under the upload's key in blob_chunks,
 * numbered and sized as every writer does (CHUNK_SIZE, the last shorter), in one transaction
 * per part: a binary COPY, or one INSERT per chunk on the embedded database (`copy` false). At
 * most one chunk is held in memory. A part that starts inside a chunk (the previous part ended
 * there) takes that chunk out and writes it again completed. When the body fails (the client
 * went away), what arrived is committed all the same, the short last chunk included, so that
 * the next part resumes from there; `failure` tells it. A failure of the database rolls the
 * whole part back.
 *
 * The transaction holds a pooled connection while the part arrives (like a raw upload streamed
 * into PostgreSQL, HTTP_REQUEST_TIMEOUT_MS at most).
 */
export function appendUploadPart(blobs: BlobsRepository, part: UploadPart, copy: boolean): Promise<AppendedPart> {
  return blobs.transaction(async (client) => {
    await blobs.openUploadPart(client, part.key, part.length, part.offset === 0);
    const key = part.key;
    let seq = Math.floor(part.offset / CHUNK_SIZE);
    const pending: Buffer[] = [];
    let pendingBytes = 0;
    const inChunk = part.offset % CHUNK_SIZE;
    if (inChunk > 0) {
      const head = await takeChunk(client, key, seq);
      if (head?.length !== inChunk) {
        throw new Error(`upload ${key.trim()}: its last chunk does not end at offset ${part.offset}`);
      }
      pending.push(head);
      pendingBytes = head.length;
    }
    const sink = copy ? new CopySink(client, key) : new InsertSink(client, key);
    let received = 0;
    let failure: unknown;
    try {
      for await (const piece of part.body) {
        part.hash.update(piece);
        received += piece.length;
        let at = 0;
        while (at < piece.length) {
          const take = Math.min(piece.length - at, CHUNK_SIZE - pendingBytes);
          pending.push(at === 0 && take === piece.length ? piece : piece.subarray(at, at + take));
          pendingBytes += take;
          at += take;
          if (pendingBytes === CHUNK_SIZE) {
            await sink.write(seq++, pending, pendingBytes);
            pending.length = 0;
            pendingBytes = 0;
          }
        }
      }
    } catch (e) {
      if (sink.failed) throw sink.failed;
      failure = e;
    }
    if (pendingBytes > 0) await sink.write(seq, pending, pendingBytes);
    await sink.end();
    return { received, failure };
  });
}

/** Where the chunks of a part go, each given as its pieces. */
interface ChunkSink {
  /** The database failed: the part is rolled back. */
  readonly failed: Error | null;
  write(seq: number, pieces: Buffer[], length: number): Promise<void>;
  end(): Promise<void>;
}

/** One binary COPY, opened with the first chunk (chunk-copy.ts frames the rows). */
class CopySink implements ChunkSink {
  private copy: Writable | null = null;
  failed: Error | null = null;

  constructor(
    private readonly client: pg.ClientBase,
    private readonly key: string,
  ) {}

  async write(seq: number, pieces: Buffer[], length: number): Promise<void> {
    if (this.failed) throw this.failed;
    if (!this.copy) {
      this.copy = openChunkCopy(this.client, 4 * CHUNK_SIZE);
      this.copy.on('error', (e: Error) => (this.failed ??= e));
      this.copy.write(COPY_HEADER);
    }
    let ok = this.copy.write(rowHeader(Buffer.from(this.key, 'latin1'), seq, length));
    for (const piece of pieces) ok = this.copy.write(piece);
    if (!ok) await once(this.copy, 'drain');
  }

  async end(): Promise<void> {
    if (this.failed) throw this.failed;
    if (!this.copy) return;
    this.copy.end(COPY_TRAILER);
    await finished(this.copy);
  }
}

/** One INSERT per chunk (the embedded database cannot take COPY FROM). */
class InsertSink implements ChunkSink {
  failed: Error | null = null;

  constructor(
    private readonly client: pg.ClientBase,
    private readonly key: string,
  ) {}

  async write(seq: number, pieces: Buffer[], length: number): Promise<void> {
    try {
      await insertChunk(this.client, this.key, seq, pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, length));
    } catch (e) {
      this.failed = e as Error;
      throw e;
    }
  }

  end(): Promise<void> {
    return Promise.resolve();
  }
}
