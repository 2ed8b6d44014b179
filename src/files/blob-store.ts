import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * File bytes live in content_blobs (one row per distinct SHA-256) and blob_chunks (the bytes in
 * pieces of CHUNK_SIZE, numbered 0, 1, 2, … without gaps; readers do not rely on that size,
 * bulk loaders may use others, but every writer numbers chunks that way). Blobs
 * are immutable and never deleted while the service runs, so a download may read a blob's
 * chunks in several queries without a transaction.
 *
 * The streaming functions take the pg pool under Prisma: Prisma's driver adapter converts
 * bytea values to arrays of numbers, which is 10 to 20 times slower than pg itself.
 */

/** Files are stored in chunks of this size, so they can be read back and streamed piecewise. */
export const CHUNK_SIZE = 256 * 1024;

/** Chunks fetched per COPY when streaming: few round trips, 4 MiB per batch. */
const CHUNKS_PER_BATCH = 16;

/**
 * Batches read from the database at once while a file is streamed: with one, the database
 * waits while a batch is received and the service waits while the next one is produced; with
 * two, one is always under way (about 30% faster for a single large download). With the one
 * being sent, a download holds three batches (12 MiB) at most.
 */
const BATCHES_AHEAD = 2;

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Stores bytes as a content blob (deduplicated by SHA-256) inside the caller's transaction and
 * returns its hash. Storing bytes that are already there costs one lookup.
 */
export async function putBlob(tx: Prisma.TransactionClient, bytes: Buffer): Promise<{ sha256: string; size: number }> {
  const sha256 = sha256Hex(bytes);
  const inserted = await tx.$executeRaw`
    INSERT INTO content_blobs (sha256, size) VALUES (${sha256}, ${bytes.length})
    ON CONFLICT (sha256) DO NOTHING`;
  if (inserted > 0) {
    for (let seq = 0, off = 0; off < bytes.length || seq === 0; seq++, off += CHUNK_SIZE) {
      const data = bytes.subarray(off, off + CHUNK_SIZE);
      await tx.$executeRaw`INSERT INTO blob_chunks (sha256, seq, data) VALUES (${sha256}, ${seq}, ${data})`;
    }
  }
  return { sha256, size: bytes.length };
}

/** Bytes to store whose hash is already known: in memory, or in a file (a spooled upload). */
export type BlobSource = { sha256: string; size: number } & ({ bytes: Buffer } | { path: string });

/**
 * Stores a blob in a transaction of its own (committed on return), one chunk per statement,
 * reading a file source one chunk at a time. A blob that exists is not written again; two
 * uploads of the same new bytes serialise on the content_blobs key, and the second skips.
 * (COPY FROM would be somewhat faster on PostgreSQL, but the embedded database cannot take it.)
 */
export async function storeBlob(pool: pg.Pool, source: BlobSource): Promise<void> {
  await withClient(pool, async (client) => {
    await client.query('BEGIN');
    try {
      // Bytes that exist are not written again, but their stored_at is refreshed (see sweepOrphanBlobs).
      const upsert = await client.query<{ inserted: boolean }>(
        `INSERT INTO content_blobs (sha256, size) VALUES ($1, $2)
         ON CONFLICT (sha256) DO UPDATE SET stored_at = now()
         RETURNING (xmax = 0) AS inserted`,
        [source.sha256, source.size],
      );
      if (upsert.rows[0].inserted) {
        let seq = 0;
        for await (const data of chunksFrom(source)) {
          await client.query('INSERT INTO blob_chunks (sha256, seq, data) VALUES ($1, $2, $3)', [
            source.sha256,
            seq++,
            data,
          ]);
        }
      }
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  });
}

/** The bytes in CHUNK_SIZE pieces; an empty blob is one empty chunk. */
async function* chunksFrom(source: BlobSource): AsyncGenerator<Buffer> {
  if ('bytes' in source) {
    let offset = 0;
    do {
      yield source.bytes.subarray(offset, offset + CHUNK_SIZE);
      offset += CHUNK_SIZE;
    } while (offset < source.bytes.length);
    return;
  }
  const file = await open(source.path, 'r');
  try {
    let offset = 0;
    do {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK_SIZE, source.size - offset));
      const { bytesRead } = await file.read(buf, 0, buf.length, offset);
      if (bytesRead !== buf.length)
        throw new Error(`spooled upload ${source.path} is shorter than ${source.size} bytes`);
      yield buf;
      offset += buf.length;
    } while (offset < source.size);
  } finally {
    await file.close();
  }
}

/**
 * Runs `work` on a pooled connection. A connection that failed is discarded, and errors the
 * server sends while it is checked out (a restart, a lost connection) reach the caller
 * through the failing query instead of crashing the process as an unhandled 'error' event.
 */
async function withClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const ignore = () => undefined;
  client.on('error', ignore);
  let failure: Error | undefined;
  try {
    return await work(client);
  } catch (e) {
    failure = e as Error;
    throw e;
  } finally {
    client.off('error', ignore);
    client.release(failure);
  }
}

/** An inclusive byte range. */
export interface BlobRange {
  start: number;
  end: number;
}

/**
 * The bytes of a blob (or a range of them) as a stream that queries a few chunks at a time,
 * only as fast as the consumer reads: memory stays flat whatever the file size. A blob whose
 * chunks do not add up to its size makes the stream fail rather than end short.
 */
export function readBlob(pool: pg.Pool, sha256: string, size: number, range?: BlobRange): Readable {
  return Readable.from(chunksOf(pool, sha256, size, range ?? { start: 0, end: size - 1 }), {
    objectMode: false,
    highWaterMark: CHUNKS_PER_BATCH * CHUNK_SIZE,
  });
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
    if (!first) throw new Error(`blob ${sha256} is shorter than its size ${size}`);
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
    if (!rows.length) throw new Error(`blob ${sha256} is shorter than its size ${size}`);
    rows.forEach((row, i) => {
      if (row.seq !== batch.from + i) throw new Error(`the chunks of blob ${sha256} are not numbered without gaps`);
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

// COPY takes no parameters: the values travel as bound parameters into session settings,
// which the statement reads back. Binary COPY sends bytea as raw bytes, where a query result
// would hex-encode it on the server and decode it again in Node (about 3 times slower).
export const SET_BATCH = "SELECT set_config('pdm.blob_sha256', $1, false), set_config('pdm.blob_seq', $2, false)";
/** The chunks of one batch; the setting is cast to the key's type, or the primary key goes unused. */
export const BATCH_SELECT =
  'SELECT seq, data FROM blob_chunks ' +
  "WHERE sha256 = current_setting('pdm.blob_sha256')::bpchar AND seq >= current_setting('pdm.blob_seq')::int " +
  `ORDER BY seq LIMIT ${CHUNKS_PER_BATCH}`;
const COPY_BATCH = `COPY (${BATCH_SELECT}) TO STDOUT (FORMAT binary)`;

/**
 * Up to CHUNKS_PER_BATCH chunks from `fromSeq` on, read whole before the connection goes back
 * to the pool: a slow client never holds a database connection.
 */
async function fetchBatch(pool: pg.Pool, sha256: string, fromSeq: number): Promise<ChunkRow[]> {
  return withClient(pool, async (client) => {
    await client.query(SET_BATCH, [sha256, String(fromSeq)]);
    const parts: Buffer[] = [];
    for await (const part of client.query(copyTo(COPY_BATCH))) parts.push(part as Buffer);
    return parseCopyRows(parts);
  });
}

/** A chunk as read: its bytes are slices of the pieces the COPY stream arrived in, not a copy. */
export interface ChunkRow {
  seq: number;
  parts: Buffer[];
  length: number;
}

const COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * The (seq int4, data bytea) rows of a binary COPY (signature, flags, header extension, rows,
 * -1), read across the pieces the stream arrived in without joining them: a batch is megabytes,
 * and copying it once more costs time and garbage.
 */
export function parseCopyRows(pieces: Buffer[]): ChunkRow[] {
  const input = new PieceReader(pieces);
  if (!input.bytes(COPY_SIGNATURE.length).equals(COPY_SIGNATURE)) throw new Error('not a binary COPY stream');
  input.int32(); // flags
  input.skip(input.int32()); // header extension
  const rows: ChunkRow[] = [];
  for (let fields = input.int16(); fields !== -1; fields = input.int16()) {
    if (fields !== 2) throw new Error(`a COPY row of ${fields} fields, expected 2`);
    input.int32(); // length of seq
    const seq = input.int32();
    const length = input.int32();
    rows.push({ seq, parts: input.slices(length), length });
  }
  return rows;
}

/** Reads big-endian integers and byte runs from a list of buffers as if they were one. */
class PieceReader {
  private index = 0;
  private offset = 0;

  constructor(private readonly pieces: Buffer[]) {}

  int16(): number {
    return this.bytes(2).readInt16BE(0);
  }

  int32(): number {
    return this.bytes(4).readInt32BE(0);
  }

  skip(n: number): void {
    this.slices(n);
  }

  /** n bytes in one buffer: a slice when they lie in one piece, else a (small) copy. */
  bytes(n: number): Buffer {
    const parts = this.slices(n);
    return parts.length === 1 ? parts[0] : Buffer.concat(parts, n);
  }

  /** The next n bytes as slices of the pieces. */
  slices(n: number): Buffer[] {
    const out: Buffer[] = [];
    while (n > 0) {
      const piece = this.pieces[this.index];
      if (!piece) throw new Error('the COPY stream ended inside a row');
      const take = Math.min(n, piece.length - this.offset);
      if (take > 0) out.push(piece.subarray(this.offset, this.offset + take));
      n -= take;
      this.offset += take;
      if (this.offset === piece.length) {
        this.index++;
        this.offset = 0;
      }
    }
    return out;
  }
}

/**
 * Deletes blobs that no content item uses (left by updates, deletions, or a write that failed
 * after storing its bytes) once they are older than the grace period. Returns how many went.
 */
export async function sweepOrphanBlobs(pool: pg.Pool, graceMs: number): Promise<number> {
  const res = await pool.query(
    `DELETE FROM content_blobs b
     WHERE b.stored_at < now() - make_interval(secs => $1::double precision / 1000)
       AND NOT EXISTS (SELECT 1 FROM content_items ci WHERE ci.sha256 = b.sha256)`,
    [graceMs],
  );
  return res.rowCount ?? 0;
}
