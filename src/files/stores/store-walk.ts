import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { BlobStore } from './blob-store.js';
import type { BlobsRepository } from './blobs.repository.js';

/**
 * The walk of an external store (vault, S3) that removes bytes no content_blobs row names.
 *
 * Such bytes are rare: an upload records its blob (BlobsRepository.claim) before it writes the bytes, and the
 * row sweep deletes bytes before their row. But the claim's transaction commits without its own
 * WAL flush (the file row's synchronous commit flushes both), so a database crash between the two
 * can lose the claim of bytes already written, and the row sweep, which starts from rows, never
 * finds them. The walk starts from the store instead.
 *
 * Bytes are removed only when no row names them, checked under the guard of deleteUnrecorded
 * (an upload that claims the same bytes at that moment waits, then writes them anew), and when
 * they were written longer ago than the grace period, longer than any upload takes. The grace is
 * a margin for what the guard cannot see: bytes a writer puts in the store before recording them
 * (an instance of an older version during an upgrade, a copy restored by hand), and "written"
 * being approximate (the store's clock; a spooled upload renamed into the vault keeps the spool
 * file's mtime; an S3 multipart upload's Last-Modified may be when it started).
 */

export interface WalkOptions {
  /** Bytes written more recently than this are kept. */
  graceMs: number;
  /** Blobs listed per second at most (the walk waits between pages); 0: no limit. */
  ratePerSecond: number;
  /** Aborted when the service is stopping: the walk ends before its next page, or its pause. */
  signal?: AbortSignal;
}

export interface WalkResult {
  /** Blobs the store listed. */
  listed: number;
  /** Of them, removed as named by no row. */
  removed: number;
}

/**
 * Walks the store once, under a session advisory lock taken on `lock` (a connection of its own,
 * not one of the pool's, which a walk of a large store would hold for hours): null when another
 * walk of the store holds it, on this or another instance. The checks and removals use `blobs`.
 * A walk whose lock connection is lost fails at its next page, so two walks never go on at once.
 */
export async function sweepUnrecordedBlobs(
  blobs: BlobsRepository,
  lock: pg.ClientBase,
  store: BlobStore,
  options: WalkOptions,
): Promise<WalkResult | null> {
  if (!(await blobs.tryWalkLock(lock, store.name))) return null;
  try {
    return await walk(blobs, store, options, () => blobs.checkLock(lock));
  } finally {
    await blobs.walkUnlock(lock, store.name).catch(() => undefined);
  }
}

async function walk(
  blobs: BlobsRepository,
  store: BlobStore,
  options: WalkOptions,
  stillLocked: () => Promise<void>,
): Promise<WalkResult> {
  const result: WalkResult = { listed: 0, removed: 0 };
  const started = Date.now();
  let pages = 0;
  for await (const page of store.list()) {
    if (options.signal?.aborted) break;
    await stillLocked();
    result.listed += page.length;
    pages++;
    const writtenBefore = Date.now() - options.graceMs;
    const old = page.filter((o) => o.writtenAt < writtenBefore);
    if (old.length) {
      const recorded = await blobs.recorded(old.map((o) => o.sha256));
      for (const o of old) {
        if (recorded.has(o.sha256)) continue;
        if (await blobs.deleteUnrecorded(o.sha256, o.size, store.name, () => store.delete(o.sha256))) {
          result.removed++;
        }
      }
    }
    if (options.ratePerSecond > 0) {
      // A page that listed nothing (S3 keys that are no blob's) counts as one, so it waits too.
      const due = started + (Math.max(result.listed, pages) * 1000) / options.ratePerSecond;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait, undefined, { signal: options.signal }).catch(() => undefined);
    }
  }
  return result;
}
