import { createHash } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';

/** Files are stored in chunks of this size, so they can be read back and streamed piecewise. */
export const CHUNK_SIZE = 256 * 1024;

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
