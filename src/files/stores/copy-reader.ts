import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/**
 * Reads a batch of blob chunks with binary COPY, and parses what arrives. Binary COPY sends
 * bytea as raw bytes, where a query result would hex-encode it on the server and decode it again
 * in Node (about 3 times slower).
 */

/** Chunks fetched per COPY when streaming: few round trips, 4 MiB per batch. */
export const CHUNKS_PER_BATCH = 16;

// COPY takes no parameters: the values travel as bound parameters into session settings,
// which the statement reads back.
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
export async function fetchBatch(pool: pg.Pool, sha256: string, fromSeq: number): Promise<ChunkRow[]> {
  return withClient(pool, async (client) => {
    await client.query(SET_BATCH, [sha256, String(fromSeq)]);
    const parts: Buffer[] = [];
    for await (const part of client.query(copyTo(COPY_BATCH))) parts.push(part as Buffer);
    return parseCopyRows(parts);
  });
}

/**
 * Runs `work` on a pooled connection. A connection that failed is discarded, and errors the
 * server sends while it is checked out (a restart, a lost connection) reach the caller
 * through the failing query instead of crashing the process as an unhandled 'error' event.
 */
export async function withClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
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

/** Runs `work` in a transaction on a pooled connection: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withClient(pool, async (client) => {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
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
