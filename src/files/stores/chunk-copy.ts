import type { BlobSource } from './blob-store.js';
import { chunksFrom } from './chunk-writer.js';

/**
 * The framing of blob chunks in a binary COPY into blob_chunks (blob-chunks.repository.ts), as
 * rows numbered as writeChunks numbers them.
 */

/** Signature, flags (none) and the length of the header extension (none). */
export const COPY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** A field count of -1 ends the rows. */
export const COPY_TRAILER = Buffer.from([0xff, 0xff]);

/** The whole COPY stream of a blob's chunks: header, rows, trailer. */
export async function* copyData(source: BlobSource): AsyncGenerator<Buffer> {
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
