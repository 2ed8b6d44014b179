import { open } from 'node:fs/promises';
import type { BlobSource } from './blob-store.js';

/**
 * Files are stored in PostgreSQL in chunks of this size, numbered 0, 1, 2, … without gaps, so
 * they can be read back and streamed piecewise. Readers do not rely on the size (bulk loaders
 * may use others), but every writer numbers chunks that way: this one.
 */
export const CHUNK_SIZE = 256 * 1024;

/** Inserts one chunk; the caller's connection or transaction decides how. */
export type ChunkInsert = (sha256: string, seq: number, data: Buffer) => Promise<unknown>;

/** Writes the chunks of a blob, one statement each, reading a file source one chunk at a time. */
export async function writeChunks(source: BlobSource, insert: ChunkInsert): Promise<void> {
  let seq = 0;
  for await (const data of chunksFrom(source)) await insert(source.sha256, seq++, data);
}

/** The bytes in CHUNK_SIZE pieces; an empty blob is one empty chunk. */
export async function* chunksFrom(source: BlobSource): AsyncGenerator<Buffer> {
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
