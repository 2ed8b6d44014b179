import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MIGRATION_COPY_PREFIX } from '../upload/upload-spool.js';
import type { StoreName } from './blob-store.js';
import type { BlobStores } from './blob-stores.js';
import { BlobWriter } from './blob-writer.js';
import type { BlobRecord } from './blobs.repository.js';

export interface MigrationOptions {
  to: StoreName;
  /** Only blobs in this store; default: every store but `to`. */
  from?: StoreName;
  /** Blobs read per query. */
  batch?: number;
  /** Called after each blob with what happened to it. */
  progress?: (event: MigrationEvent) => void;
  /** Where the temporary copies go: the system's temporary folder unless given. */
  tempDir?: string;
}

export type MigrationEvent =
  | { kind: 'moved'; sha256: string; size: number; from: StoreName }
  | { kind: 'skipped'; sha256: string; reason: string }
  | { kind: 'failed'; sha256: string; reason: string };

export interface MigrationResult {
  moved: number;
  bytes: number;
  skipped: number;
  failed: number;
  /** Temporary copies that earlier runs, killed midway, left behind: removed at the start. */
  leftovers: number;
}

export class MigrationBusyError extends Error {
  constructor() {
    super('another files:migrate is running on this database; wait for it to finish');
  }
}

/**
 * Moves the bytes of every blob recorded in another store into `to`, while the service runs.
 * Each blob is copied to a temporary file and checked against its SHA-256 and size, written to
 * the target (which checks again, or is asked for the size), and then its row is switched to
 * the target in one statement that also deletes the PostgreSQL chunks (BlobWriter.move); bytes
 * in another external store are deleted after that. Downloads follow the row, so they read the old copy until the
 * switch and the new one after. The row's stored_at is refreshed first, so the sweep leaves the
 * blob alone meanwhile. Interrupted, it is run again: it goes on with what is not moved yet,
 * and removes the temporary copy the interrupted run left.
 * A blob that fails (unreadable, damaged, store down) is reported and left where it is. Only one
 * run at a time, whichever instance or shell started it: another gets MigrationBusyError.
 */
export async function migrateBlobs(stores: BlobStores, options: MigrationOptions): Promise<MigrationResult> {
  const target = stores.get(options.to);
  if (options.from) stores.get(options.from);
  // The migration needs DATABASE_URL (a server, not the embedded database): COPY is available.
  const writer = new BlobWriter(stores, true);
  const result: MigrationResult = { moved: 0, bytes: 0, skipped: 0, failed: 0, leftovers: 0 };
  const tempDir = options.tempDir ?? tmpdir();
  const ran = await stores.blobs.withMigrationLock(async () => {
    result.leftovers = await removeAbandonedCopies(tempDir);
    let after = '';
    for (;;) {
      const rows = await stores.blobs.blobsToMove(options.to, options.from ?? null, after, options.batch ?? 100);
      if (!rows.length) break;
      for (const row of rows) {
        after = row.sha256;
        const event = await moveBlob(stores, writer, target.name, row, tempDir);
        if (event.kind === 'moved') {
          result.moved++;
          result.bytes += event.size;
        } else if (event.kind === 'skipped') result.skipped++;
        else result.failed++;
        options.progress?.(event);
      }
    }
    return true;
  });
  if (!ran) throw new MigrationBusyError();
  return result;
}

async function moveBlob(
  stores: BlobStores,
  writer: BlobWriter,
  to: StoreName,
  row: BlobRecord,
  tempDir: string,
): Promise<MigrationEvent> {
  const { sha256, size, store: from } = row;
  // Named by the process, so that a later run knows whether the one that made it is gone.
  const path = join(tempDir, `${MIGRATION_COPY_PREFIX}${process.pid}-${randomUUID()}`);
  try {
    if (!(await stores.blobs.touch(sha256, from)))
      return { kind: 'skipped', sha256, reason: 'deleted or moved meanwhile' };
    const source = stores.get(from);
    const copy = await copyVerified(await source.read(sha256, size), path, sha256, size);
    if (copy) return { kind: 'failed', sha256, reason: copy };
    const switched = await writer.move({ sha256, size, path }, from, to);
    if (!switched) return { kind: 'skipped', sha256, reason: 'deleted or moved meanwhile' };
    if (from !== 'postgres') await source.delete(sha256);
    return { kind: 'moved', sha256, size, from };
  } catch (e) {
    return { kind: 'failed', sha256, reason: (e as Error).message };
  } finally {
    await rm(path, { force: true });
  }
}

/**
 * Removes the temporary copies whose process is gone: a run killed midway leaves the copy of the
 * blob it was moving. Copies of live processes (another run on another database, sharing the
 * folder) are left alone; the service's sweep removes any copy older than a day too
 * (removeStaleSpools), also those of a process whose number was taken again.
 */
async function removeAbandonedCopies(dir: string): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [])) {
    const pid = new RegExp(`^${MIGRATION_COPY_PREFIX}(\\d+)-`).exec(name)?.[1];
    if (pid === undefined || isRunning(Number(pid))) continue;
    await rm(join(dir, name), { force: true });
    removed++;
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0 only asks whether the process exists
    return true;
  } catch (e) {
    // EPERM: it exists, under another user.
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Copies the stream to `path`; the reason it is not the blob's bytes, or null when it is. */
async function copyVerified(stream: NodeJS.ReadableStream, path: string, sha256: string, size: number) {
  const hash = createHash('sha256');
  let length = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      length += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(stream, meter, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  const digest = hash.digest('hex');
  if (length !== size || digest !== sha256) {
    return `the stored bytes are damaged: ${length} bytes with sha-256 ${digest}, recorded ${size} bytes`;
  }
  return null;
}
