import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A raw upload written to a private temporary file, with its size and digests. */
export interface SpooledUpload {
  path: string;
  size: number;
  sha256: Buffer;
  /** Only when asked for (Content-MD5 or an md5 Digest): hashing costs time. */
  md5?: Buffer;
  /** Removes the temporary file; safe to call more than once. */
  dispose(): Promise<void>;
}

export class UploadTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the file is larger than the limit of ${limit} bytes (FILES_MAX_SIZE)`);
  }
}

export class UploadAbortedError extends Error {
  constructor() {
    super('the request body ended early (client aborted the upload)');
  }
}

const SPOOL_PREFIX = 'pdm-upload-';

/**
 * Removes spool files older than `maxAgeMs` that a process killed mid-upload left behind.
 * Uploads in progress are minutes old at most, so a day-old file belongs to nobody.
 */
export async function removeStaleSpools(maxAgeMs: number, dir = tmpdir()): Promise<number> {
  const cutoff = Date.now() - maxAgeMs;
  let removed = 0;
  for (const name of await readdir(dir)) {
    if (!name.startsWith(SPOOL_PREFIX)) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info?.isFile() && info.mtimeMs < cutoff) {
      await rm(path, { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * Copies a request body to a temporary file while hashing and counting it, so that neither
 * memory nor a database connection is held while a slow client sends a large file, and the
 * digest can be checked before anything is stored. Stops at `maxSize` bytes; the rest of the
 * body is then drained and discarded by Node after the error response. `dir` is the system's
 * temporary folder, or the vault's folder of incoming files, from where the file is renamed
 * into the vault instead of copied.
 */
export async function spoolUpload(
  body: Readable,
  maxSize: number,
  withMd5: boolean,
  dir = tmpdir(),
): Promise<SpooledUpload> {
  const path = join(dir, `${SPOOL_PREFIX}${randomUUID()}`);
  const dispose = () => rm(path, { force: true });
  const sha256 = createHash('sha256');
  const md5 = withMd5 ? createHash('md5') : null;
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxSize) return done(new UploadTooLargeError(maxSize));
      sha256.update(chunk);
      md5?.update(chunk);
      done(null, chunk);
    },
  });
  const onClose = () => {
    if (!(body as { complete?: boolean }).complete) meter.destroy(new UploadAbortedError());
  };
  const onError = () => meter.destroy(new UploadAbortedError());
  body.once('close', onClose);
  body.once('error', onError);
  body.pipe(meter);
  try {
    await pipeline(meter, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (e) {
    body.unpipe(meter);
    body.resume();
    await dispose();
    throw e;
  } finally {
    body.off('close', onClose);
    body.off('error', onError);
  }
  return { path, size, sha256: sha256.digest(), md5: md5?.digest(), dispose };
}
