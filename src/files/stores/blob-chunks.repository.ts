import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { Prisma } from '../../generated/prisma/client.js';
import { withPgClient } from '../../prisma/pg-transaction.js';
import { sha256Hex, type BlobSource } from './blob-store.js';
import { copyData } from './chunk-copy.js';
import { writeChunks } from './chunk-writer.js';
import { CHUNKS_PER_BATCH, parseCopyRows, type ChunkRow } from './copy-reader.js';

/**
 * The statements on blob_chunks, the bytes of the postgres store (and the importer's putBlob). They run on the pg pool under
 * Prisma, or on the connection of the caller's transaction: Prisma's driver adapter converts
 * bytea values to arrays of numbers, which is 10 to 20 times slower than pg itself. Reads and
 * writes of many chunks use binary COPY, which sends bytea as raw bytes, where a query result
 * would hex-encode it on the server and decode it again in Node (about 3 times slower).
 */

/** pg.Pool or a connection (of a transaction): what a statement runs on. */
type Db = pg.Pool | pg.ClientBase;

/**
 * The chunks of a blob with one binary COPY (framed by chunk-copy.ts). One INSERT per chunk costs
 * a round trip each, and pg copies every bound parameter into its message buffer (twice when
 * that buffer grows), which made the inserts two thirds of a large upload's time. The embedded
 * database cannot take COPY FROM; it gets one INSERT per chunk.
 */
const COPY_CHUNKS = 'COPY blob_chunks (sha256, seq, data) FROM STDIN (FORMAT binary)';

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
 * Writes the chunks of a blob in the caller's transaction on `client`: with one binary COPY
 * (`copy`), or, on the embedded database, which cannot take COPY FROM, one INSERT per chunk. A
 * failure leaves that transaction aborted.
 */
export async function insertChunks(client: pg.ClientBase, source: BlobSource, copy: boolean): Promise<void> {
  if (copy) await pipeline(Readable.from(copyData(source)), client.query(copyFrom(COPY_CHUNKS)));
  else {
    await writeChunks(source, (sha256, seq, data) => insertChunk(client, sha256, seq, data));
  }
}

/**
 * A binary COPY of chunks into blob_chunks on `client`, open for the caller to write the framing
 * of chunk-copy.ts into (StreamedBlob: an upload copied while it is received).
 */
export function openChunkCopy(client: pg.ClientBase, highWaterMark: number): Writable {
  return client.query(copyFrom(COPY_CHUNKS, { highWaterMark }));
}

/**
 * Up to CHUNKS_PER_BATCH chunks from `fromSeq` on, read whole before the connection goes back
 * to the pool: a slow client never holds a database connection.
 */
export async function fetchBatch(pool: pg.Pool, sha256: string, fromSeq: number): Promise<ChunkRow[]> {
  return withPgClient(pool, async (client) => {
    await client.query(SET_BATCH, [sha256, String(fromSeq)]);
    const parts: Buffer[] = [];
    for await (const part of client.query(copyTo(COPY_BATCH))) parts.push(part as Buffer);
    return parseCopyRows(parts);
  });
}

/** The sequence number and length of each chunk of a blob, in order. */
export async function chunkLayout(pool: pg.Pool, sha256: string): Promise<[number, number][]> {
  const layout = await pool.query<[number, number]>({
    text: 'SELECT seq, octet_length(data) FROM blob_chunks WHERE sha256 = $1 ORDER BY seq',
    values: [sha256],
    rowMode: 'array',
  });
  return layout.rows;
}

/** The bytes the chunks of a blob hold together; null when it has none. */
export async function chunkBytes(pool: pg.Pool, sha256: string): Promise<number | null> {
  const res = await pool.query<{ n: string | null }>(
    'SELECT sum(octet_length(data))::text AS n FROM blob_chunks WHERE sha256 = $1',
    [sha256],
  );
  return res.rows[0].n === null ? null : Number(res.rows[0].n);
}

/** Whether the blob has a chunk (in the caller's transaction on `client`). */
export async function hasChunks(client: pg.ClientBase, sha256: string): Promise<boolean> {
  const there = await client.query('SELECT 1 FROM blob_chunks WHERE sha256 = $1 LIMIT 1', [sha256]);
  return Boolean(there.rowCount);
}

export async function deleteChunks(db: Db, sha256: string): Promise<void> {
  await db.query('DELETE FROM blob_chunks WHERE sha256 = $1', [sha256]);
}

/**
 * The last chunk under `key` (an upload's, whose chunks before the last are all CHUNK_SIZE
 * long): its number and length; null when there is none.
 */
export async function lastChunk(db: Db, key: string): Promise<{ seq: number; length: number } | null> {
  const res = await db.query<{ seq: number; length: number }>(
    'SELECT seq, octet_length(data) AS length FROM blob_chunks WHERE sha256 = $1 ORDER BY seq DESC LIMIT 1',
    [key],
  );
  return res.rows[0] ?? null;
}

/**
 * Deletes one chunk and returns its bytes, in the caller's transaction on `client` (the short
 * last chunk of an upload, which the next part completes and writes again); null when absent.
 */
export async function takeChunk(client: pg.ClientBase, key: string, seq: number): Promise<Buffer | null> {
  const res = await client.query<{ data: Buffer }>(
    'DELETE FROM blob_chunks WHERE sha256 = $1 AND seq = $2 RETURNING data',
    [key, seq],
  );
  return res.rows[0]?.data ?? null;
}

/** Inserts one chunk in the caller's transaction on `client` (the embedded database's way). */
export async function insertChunk(client: pg.ClientBase, key: string, seq: number, data: Buffer): Promise<void> {
  await client.query('INSERT INTO blob_chunks (sha256, seq, data) VALUES ($1, $2, $3)', [key, seq, data]);
}

/**
 * Gives the chunks copied under a temporary key the blob's: an UPDATE of the key column only,
 * which leaves the chunk bytes (stored out of line) where they are.
 */
export async function rekeyChunks(client: pg.ClientBase, from: string, to: string): Promise<void> {
  await client.query('UPDATE blob_chunks SET sha256 = $1 WHERE sha256 = $2', [to, from]);
}

/**
 * Stores bytes as a content blob (deduplicated by SHA-256) inside the caller's Prisma
 * transaction and returns its hash. Storing bytes that are already there costs one lookup. (The
 * importer's way, in the import's transaction.)
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
