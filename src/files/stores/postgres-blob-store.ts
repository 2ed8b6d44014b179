import { Readable } from 'node:stream';
import type pg from 'pg';
import { chunkBytes, chunkLayout, deleteChunks, fetchBatch } from './blob-chunks.repository.js';
import {
  BlobIntegrityError,
  BlobMissingError,
  type BlobRange,
  type BlobSource,
  type BlobStore,
  type StoredObject,
} from './blob-store.js';
import type { BlobsRepository } from './blobs.repository.js';
import { CHUNK_SIZE } from './chunk-writer.js';
import { CHUNKS_PER_BATCH, type ChunkRow } from './copy-reader.js';

/**
 * The postgres store: file bytes in blob_chunks, beside their content_blobs row (which the
 * chunks reference, so deleting the row deletes them). Blobs are immutable and never deleted
 * while they are used, so a download may read a blob's chunks in several queries without a
 * transaction.
 *
 * The streaming functions take the pg pool under Prisma: Prisma's driver adapter converts
 * bytea values to arrays of numbers, which is 10 to 20 times slower than pg itself. Its
 * statements are blob-chunks.repository.ts's.
 */

/**
 * Batches read from the database at once while a file is streamed: with one, the database
 * waits while a batch is received and the service waits while the next one is produced; with
 * two, one is always under way (about 30% faster for a single large download). With the one
 * being sent, a download holds three batches (12 MiB) at most.
 */
const BATCHES_AHEAD = 2;

/** The blob_chunks store, as a BlobStore for reads; writes go through BlobWriter. */
export class PostgresBlobStore implements BlobStore {
  readonly name = 'postgres';

  constructor(private readonly blobs: BlobsRepository) {}

  async has(sha256: string, size: number): Promise<boolean> {
    return (await chunkBytes(this.blobs.pool, sha256)) === size;
  }

  /** Writes the chunks of a blob whose row exists, unless they are there. */
  async write(source: BlobSource): Promise<void> {
    await this.blobs.writeMissingChunks(source);
  }

  read(sha256: string, size: number, range?: BlobRange): Promise<Readable> {
    return readBlob(this.blobs.pool, sha256, size, range);
  }

  readWhole(sha256: string, size: number): Promise<Buffer> {
    return readWholeBlob(this.blobs.pool, sha256, size);
  }

  async delete(sha256: string): Promise<void> {
    await deleteChunks(this.blobs.pool, sha256);
  }

  removeLeftovers(): Promise<number> {
    return Promise.resolve(0); // a write that failed was rolled back
  }

  /** Nothing: chunks are written and deleted with their row, so none is ever without one. */
  async *list(): AsyncGenerator<StoredObject[]> {}

  close(): Promise<void> {
    return Promise.resolve(); // the pool is Prisma's
  }
}

/**
 * The bytes of a blob (or a range of them) as a stream that queries a few chunks at a time,
 * only as fast as the consumer reads: memory stays flat whatever the file size. A blob whose
 * chunks do not add up to its size makes the stream fail rather than end short. The first
 * batch is read before the stream is returned, so that a blob without chunks (or a database
 * that does not answer) fails the opening, before a download has sent its headers.
 */
export async function readBlob(pool: pg.Pool, sha256: string, size: number, range?: BlobRange): Promise<Readable> {
  const chunks = chunksOf(pool, sha256, size, range ?? { start: 0, end: size - 1 });
  const first = await chunks.next();
  async function* all(): AsyncGenerator<Buffer> {
    if (first.done) return;
    yield first.value;
    yield* chunks;
  }
  return Readable.from(all(), { objectMode: false, highWaterMark: CHUNKS_PER_BATCH * CHUNK_SIZE });
}

async function* chunksOf(pool: pg.Pool, sha256: string, size: number, range: BlobRange): AsyncGenerator<Buffer> {
  if (range.end < range.start) return;
  // Where the range starts: the first chunk and the offset of that chunk in the file.
  let seq = 0;
  let offset = 0;
  if (range.start > 0) {
    const layout = await chunkLayout(pool, sha256);
    const first = layout.find(([, length]) => {
      if (offset + length > range.start) return true;
      offset += length;
      return false;
    });
    if (!layout.length) throw new BlobMissingError('postgres', sha256);
    if (!first) throw new BlobIntegrityError(`blob ${sha256} is shorter than its size ${size}`);
    seq = first[0];
  }
  let position = offset; // where the batch being sent starts, then how far it went
  let nextSeq = seq;
  let batchBytes = CHUNKS_PER_BATCH * CHUNK_SIZE; // what a batch holds, as far as known
  let expectedEnd = offset; // where the batches under way should end
  const underWay: { from: number; rows: Promise<ChunkRow[]> }[] = [];
  // Keeps BATCHES_AHEAD batches under way while the range goes on past them.
  const fetchMore = () => {
    while (underWay.length < BATCHES_AHEAD && expectedEnd <= range.end) {
      const rows = fetchBatch(pool, sha256, nextSeq);
      // Awaited in a later turn; should the client go away first, its failure reaches no one.
      rows.catch(() => undefined);
      underWay.push({ from: nextSeq, rows });
      nextSeq += CHUNKS_PER_BATCH;
      expectedEnd += batchBytes;
    }
  };
  fetchMore();
  for (let batch = underWay.shift(); batch; batch = underWay.shift()) {
    const rows = await batch.rows;
    if (!rows.length) {
      if (batch.from === 0) throw new BlobMissingError('postgres', sha256);
      throw new BlobIntegrityError(`blob ${sha256} is shorter than its size ${size}`);
    }
    rows.forEach((row, i) => {
      if (row.seq !== batch.from + i) {
        throw new BlobIntegrityError(`the chunks of blob ${sha256} are not numbered without gaps`);
      }
    });
    batchBytes = rows.reduce((n, row) => n + row.length, 0);
    expectedEnd = position + (underWay.length + 1) * batchBytes;
    fetchMore();
    for (const row of rows) {
      for (const part of row.parts) {
        const from = Math.max(range.start - position, 0);
        const to = Math.min(range.end + 1 - position, part.length);
        if (to > from) yield from === 0 && to === part.length ? part : part.subarray(from, to);
        position += part.length;
        if (position > range.end) return;
      }
    }
    // The range goes on, and the batches were smaller than expected: read on from here.
    expectedEnd = position;
    fetchMore();
  }
}

/**
 * All bytes of a small blob in one buffer, read as a download reads them (one batch for blobs
 * up to CHUNKS_PER_BATCH chunks, the same checks of their numbering and size).
 */
export async function readWholeBlob(pool: pg.Pool, sha256: string, size: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of chunksOf(pool, sha256, size, { start: 0, end: size - 1 })) parts.push(part);
  return Buffer.concat(parts, size);
}
