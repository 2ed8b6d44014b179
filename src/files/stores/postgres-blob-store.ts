import { Readable } from 'node:stream';
import type pg from 'pg';
import type { Prisma } from '../../generated/prisma/client.js';
import {
  BlobIntegrityError,
  BlobMissingError,
  sha256Hex,
  type BlobRange,
  type BlobSource,
  type BlobStore,
  type StoreName,
  type StoredObject,
} from './blob-store.js';
import { ASYNC_COMMIT } from './blobs.repository.js';
import { copyChunks } from './chunk-copy.js';
import { CHUNK_SIZE, writeChunks } from './chunk-writer.js';
import { CHUNKS_PER_BATCH, fetchBatch, inTransaction, type ChunkRow } from './copy-reader.js';

/**
 * The postgres store: file bytes in blob_chunks, beside their content_blobs row (which the
 * chunks reference, so deleting the row deletes them). Blobs are immutable and never deleted
 * while they are used, so a download may read a blob's chunks in several queries without a
 * transaction.
 *
 * The streaming functions take the pg pool under Prisma: Prisma's driver adapter converts
 * bytea values to arrays of numbers, which is 10 to 20 times slower than pg itself.
 */

/**
 * Batches read from the database at once while a file is streamed: with one, the database
 * waits while a batch is received and the service waits while the next one is produced; with
 * two, one is always under way (about 30% faster for a single large download). With the one
 * being sent, a download holds three batches (12 MiB) at most.
 */
const BATCHES_AHEAD = 2;

/**
 * Stores bytes as a content blob (deduplicated by SHA-256) inside the caller's transaction and
 * returns its hash. Storing bytes that are already there costs one lookup. (The importer's way.)
 */
export async function putBlob(tx: Prisma.TransactionClient, bytes: Buffer): Promise<{ sha256: string; size: number }> {
  const sha256 = sha256Hex(bytes);
  const inserted = await tx.$executeRaw`
    INSERT INTO content_blobs (sha256, size) VALUES (${sha256}, ${bytes.length})
    ON CONFLICT (sha256) DO NOTHING`;
  if (inserted > 0) {
    await writeChunks({ sha256, size: bytes.length, bytes }, (hash, seq, data) => {
      return tx.$executeRaw`INSERT INTO blob_chunks (sha256, seq, data) VALUES (${hash}, ${seq}, ${data})`;
    });
  }
  return { sha256, size: bytes.length };
}

/**
 * Records a blob in the postgres store in the caller's transaction, or refreshes the stored_at
 * of the one recorded (in whichever store); `inserted` when this made the row, whose chunks the
 * caller then writes. The transaction commits asynchronously: the commit does not wait for its WAL to
 * reach the disk (ASYNC_COMMIT). The file row that uses the blob is committed after it,
 * synchronously, which flushes the WAL up to that later position, this transaction included.
 * Until then nothing uses the blob, and a crash in between loses at most a blob no file row
 * points at. One flush per upload instead of two.
 */
export async function upsertPostgresBlob(
  client: pg.ClientBase,
  sha256: string,
  size: number,
): Promise<{ inserted: boolean; store: StoreName }> {
  const res = await client.query<{ inserted: boolean; store: StoreName }>({
    name: 'files-blob-upsert',
    text: `INSERT INTO content_blobs (sha256, size, store) SELECT $1, $2, 'postgres' WHERE ${ASYNC_COMMIT}
     ON CONFLICT (sha256) DO UPDATE SET stored_at = now()
     RETURNING (xmax = 0) AS inserted, store`,
    values: [sha256, size],
  });
  return res.rows[0];
}

const insertChunk = (client: pg.ClientBase) => (sha256: string, seq: number, data: Buffer) =>
  client.query('INSERT INTO blob_chunks (sha256, seq, data) VALUES ($1, $2, $3)', [sha256, seq, data]);

/**
 * Writes the chunks of a blob in the caller's transaction on `client`: with one binary COPY
 * (`copy`), or, on the embedded database, which cannot take COPY FROM, one INSERT per chunk.
 * BlobWriter's way for every write into the postgres store.
 */
export async function writeBlobChunks(client: pg.ClientBase, source: BlobSource, copy: boolean): Promise<void> {
  if (copy) await copyChunks(client, source);
  else await writeChunks(source, insertChunk(client));
}

/** The blob_chunks store, as a BlobStore for reads; writes go through BlobWriter. */
export class PostgresBlobStore implements BlobStore {
  readonly name = 'postgres';

  constructor(private readonly pool: pg.Pool) {}

  async has(sha256: string, size: number): Promise<boolean> {
    const res = await this.pool.query<{ n: string | null }>(
      'SELECT sum(octet_length(data))::text AS n FROM blob_chunks WHERE sha256 = $1',
      [sha256],
    );
    return res.rows[0].n !== null && Number(res.rows[0].n) === size;
  }

  /** Writes the chunks of a blob whose row exists, unless they are there. */
  async write(source: BlobSource): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query('SELECT 1 FROM content_blobs WHERE sha256 = $1 FOR UPDATE', [source.sha256]);
      const there = await client.query('SELECT 1 FROM blob_chunks WHERE sha256 = $1 LIMIT 1', [source.sha256]);
      if (!there.rowCount) await writeBlobChunks(client, source, false);
    });
  }

  read(sha256: string, size: number, range?: BlobRange): Promise<Readable> {
    return readBlob(this.pool, sha256, size, range);
  }

  readWhole(sha256: string, size: number): Promise<Buffer> {
    return readWholeBlob(this.pool, sha256, size);
  }

  async delete(sha256: string): Promise<void> {
    await this.pool.query('DELETE FROM blob_chunks WHERE sha256 = $1', [sha256]);
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
    const layout = await pool.query<[number, number]>({
      text: 'SELECT seq, octet_length(data) FROM blob_chunks WHERE sha256 = $1 ORDER BY seq',
      values: [sha256],
      rowMode: 'array',
    });
    const first = layout.rows.find(([, length]) => {
      if (offset + length > range.start) return true;
      offset += length;
      return false;
    });
    if (!layout.rows.length) throw new BlobMissingError('postgres', sha256);
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
