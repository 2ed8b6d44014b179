import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { BlobSource } from './blob-store.js';
import { chunksFrom } from './chunk-writer.js';

/**
 * Writes the chunks of a blob with one binary COPY, numbered as writeChunks numbers them. The
 * bytes go to PostgreSQL as they are: one INSERT per chunk costs a round trip each, and pg
 * copies every bound parameter into its message buffer (twice when that buffer grows), which
 * made the inserts two thirds of a large upload's time. The embedded database cannot take
 * COPY FROM; it gets writeChunks.
 */
export const COPY_CHUNKS = 'COPY blob_chunks (sha256, seq, data) FROM STDIN (FORMAT binary)';

/** Signature, flags (none) and the length of the header extension (none). */
export const COPY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** A field count of -1 ends the rows. */
export const COPY_TRAILER = Buffer.from([0xff, 0xff]);

/** Runs in the caller's transaction on `client`; a failure leaves that transaction aborted. */
export async function copyChunks(client: pg.ClientBase, source: BlobSource): Promise<void> {
  await pipeline(Readable.from(copyData(source)), client.query(copyFrom(COPY_CHUNKS)));
}

async function* copyData(source: BlobSource): AsyncGenerator<Buffer> {
  yield COPY_HEADER;
  const key = Buffer.from(source.sha256, 'latin1');
  let seq = 0;
  for await (const data of chunksFrom(source)) {
    yield rowHeader(key, seq++, data.length);
    yield data;
  }
  yield COPY_TRAILER;
}

/** Three fields: sha256 (char(64): its text), seq (int4), then the length of data (bytea), whose bytes follow. */
export function rowHeader(key: Buffer, seq: number, length: number): Buffer {
  const header = Buffer.allocUnsafe(2 + 4 + key.length + 4 + 4 + 4);
  let at = header.writeInt16BE(3, 0);
  at = header.writeInt32BE(key.length, at);
  at += key.copy(header, at);
  at = header.writeInt32BE(4, at);
  at = header.writeInt32BE(seq, at);
  header.writeInt32BE(length, at);
  return header;
}
