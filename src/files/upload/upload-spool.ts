import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadTee } from './streamed-blob.js';

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
/** The temporary copies of files:migrate (blob-migration.ts). */
export const MIGRATION_COPY_PREFIX = 'pdm-migrate-';

/**
 * Removes spool files and files:migrate's copies older than `maxAgeMs` that a process killed
 * mid-upload or mid-move left behind. Those in use are minutes old at most (each holds one
 * file while it is received or moved), so a day-old one belongs to nobody.
 */
export async function removeStaleSpools(maxAgeMs: number, dir = tmpdir()): Promise<number> {
  const cutoff = Date.now() - maxAgeMs;
  let removed = 0;
  for (const name of await readdir(dir)) {
    if (!name.startsWith(SPOOL_PREFIX) && !name.startsWith(MIGRATION_COPY_PREFIX)) continue;
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
  flushing = false,
): Promise<SpooledUpload> {
  const path = join(dir, `${SPOOL_PREFIX}${randomUUID()}`);
  const dispose = () => rm(path, { force: true });
  try {
    const file = flushing ? await flushingFile(path) : createWriteStream(path, { flags: 'wx', mode: 0o600 });
    const digests = await metered(body, maxSize, withMd5, file);
    return { path, ...digests, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

/** Bytes written between two flushes of a spool file that becomes a blob (see flushingFile). */
const FLUSH_EVERY = 8 * 1024 * 1024;

/**
 * A new file that starts flushing its bytes to disk (fdatasync, one at a time, in the
 * background) every FLUSH_EVERY bytes while it is written: for a spool file that becomes a blob
 * in the vault, which is flushed before it is named, that final flush then has only the last
 * bytes left to write instead of the whole file.
 */
async function flushingFile(path: string): Promise<Writable> {
  const file = await open(path, 'wx', 0o600);
  let written = 0;
  let flushed = 0;
  let flushing: Promise<void> | null = null;
  const append = async (pieces: Buffer[]) => {
    const size = pieces.reduce((n, p) => n + p.length, 0);
    const { bytesWritten } = await file.writev(pieces);
    if (bytesWritten !== size) throw new Error(`wrote ${bytesWritten} of ${size} bytes to ${path}`);
    written += size;
    if (!flushing && written - flushed >= FLUSH_EVERY) {
      flushed = written;
      flushing = file.datasync().finally(() => (flushing = null));
    }
  };
  const settle = (work: Promise<unknown>, done: (e?: Error | null) => void) => {
    work.then(
      () => done(),
      (e: Error) => done(e),
    );
  };
  return new Writable({
    write: (piece: Buffer, _encoding, done) => settle(append([piece]), done),
    writev: (pieces, done) => settle(append(pieces.map((p) => p.chunk as Buffer)), done),
    final: (done) => settle(Promise.resolve(flushing), done),
    destroy: (error, done) => {
      const closed = Promise.resolve(flushing)
        .catch(() => undefined)
        .then(() => file.close());
      settle(closed, () => done(error));
    },
  });
}

/** A raw upload that went elsewhere as it arrived: what is left of it here. */
export interface PassedUpload {
  size: number;
  sha256: Buffer;
  md5?: Buffer;
}

/**
 * Hands a request body to `tee` piece by piece as it arrives (a StreamedBlob), hashing and
 * counting it on the way, as spoolUpload does, but keeps nothing: each next piece waits until
 * the tee took the last one.
 */
export function passUpload(body: Readable, maxSize: number, withMd5: boolean, tee: UploadTee): Promise<PassedUpload> {
  const discard = new Writable({ write: (_piece, _encoding, done) => done() });
  return metered(body, maxSize, withMd5, discard, tee);
}

/** Pipes the body through a meter (size limit, digests, the tee) into `sink`. */
async function metered(
  body: Readable,
  maxSize: number,
  withMd5: boolean,
  sink: Writable,
  tee?: UploadTee,
): Promise<PassedUpload> {
  const sha256 = createHash('sha256');
  const md5 = withMd5 ? createHash('md5') : null;
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxSize) return done(new UploadTooLargeError(maxSize));
      sha256.update(chunk);
      md5?.update(chunk);
      if (tee) tee.write(chunk, () => done(null, chunk));
      else done(null, chunk);
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
    await pipeline(meter, sink);
  } catch (e) {
    body.unpipe(meter);
    body.resume();
    throw e;
  } finally {
    body.off('close', onClose);
    body.off('error', onError);
  }
  return { size, sha256: sha256.digest(), md5: md5?.digest() };
}
