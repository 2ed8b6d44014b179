import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import pg from 'pg';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { isDatabaseUnavailable } from '../../common/database-errors.js';
import { PeriodicTask } from '../../common/periodic-task.js';
import type { BlobStore } from './blob-store.js';
import { FileContent } from '../file-content.js';
import { sweepUnrecordedBlobs } from './store-walk.js';
import { removeStaleSpools } from '../upload/upload-spool.js';

/** Bytes stored this recently are never swept: an upload may not have recorded its file yet. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
/** Spool files of uploads (and copies of files:migrate) older than this were left by a process that died. */
export const STALE_SPOOL_MS = 24 * 60 * 60 * 1000;
/** Orphans of an external store deleted per query of candidates. */
const SWEEP_BATCH = 100;

/**
 * Deletes, every FILES_SWEEP_INTERVAL_MS, the file bytes that no file uses any more (in every
 * store this instance is configured for), upload spool files and files:migrate's copies that a
 * killed process left in the temporary folder, and what such a process left half-written in a
 * store. Several instances may sweep at once: each deletion re-checks its condition under a row
 * lock, so they do no harm.
 * As often, it walks the vault and the bucket for bytes no row names at all (store-walk.ts): one
 * instance at a time, at most FILES_STORE_SWEEP_RATE blobs a second. A walk may outlast the
 * interval: the next one starts at the first interval after it ended, while the sweep of
 * unused bytes goes on meanwhile.
 */
@Injectable()
export class BlobSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BlobSweeper');
  private readonly unused: PeriodicTask;
  private readonly walk: PeriodicTask;

  constructor(
    private readonly content: FileContent,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.unused = new PeriodicTask({
      name: 'sweep',
      intervalMs: config.filesSweepIntervalMs,
      run: () => this.sweepUnused(),
      logger: this.logger,
    });
    this.walk = new PeriodicTask({
      name: 'walk of the stores',
      intervalMs: config.filesStoreSweepRate === 0 ? 0 : config.filesSweepIntervalMs,
      run: (signal) => this.walkStores(signal),
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.unused.start();
    this.walk.start();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.unused.stop(), this.walk.stop()]);
  }

  /** Sweeps once, and walks the stores; returns how many blobs went. */
  async sweep(): Promise<number> {
    return (await this.sweepUnused()) + (await this.walkStores());
  }

  /** Deletes the bytes no file uses any more, and what killed processes left; returns how many blobs went. */
  async sweepUnused(): Promise<number> {
    const spools = await removeStaleSpools(STALE_SPOOL_MS).catch(() => 0);
    if (spools > 0)
      this.logger.log(`removed ${spools} upload spool files or migration copies left by an earlier process`);
    let n = 0;
    try {
      n += await this.content.stores.blobs.sweepOrphans(ORPHAN_GRACE_MS);
      for (const store of this.content.stores.all()) {
        if (store.name !== 'postgres') n += await this.sweepStore(store);
      }
    } catch (e) {
      if (!isDatabaseUnavailable(e)) this.logger.error(`sweep failed: ${(e as Error).message}`);
    }
    if (n > 0) this.logger.log(`deleted the bytes of ${n} files no longer used`);
    return n;
  }

  /**
   * Walks each external store for bytes that no row names (a claim lost in a database crash)
   * and removes those older than FILES_STORE_SWEEP_GRACE_MS. Returns how many went. Another
   * walk of a store, on this instance or another, holds its advisory lock: that store is skipped.
   * `signal` (the service is stopping) ends the walk at its next page.
   */
  async walkStores(signal?: AbortSignal): Promise<number> {
    if (this.config.filesStoreSweepRate === 0) return 0;
    let n = 0;
    for (const store of this.content.stores.all()) {
      if (store.name === 'postgres') continue;
      if (signal?.aborted) break;
      const lock = new pg.Client({
        connectionString: this.config.databaseUrl,
        connectionTimeoutMillis: this.config.dbConnectTimeoutMs,
      });
      lock.on('error', () => undefined); // the walk's next check of the lock reports it
      try {
        await lock.connect();
        const result = await sweepUnrecordedBlobs(this.content.stores.blobs, lock, store, {
          graceMs: this.config.filesStoreSweepGraceMs,
          ratePerSecond: this.config.filesStoreSweepRate,
          signal,
        });
        if (result?.removed) {
          this.logger.log(
            `removed ${result.removed} blobs that no row named from the ${store.name} store (${result.listed} listed)`,
          );
        }
        n += result?.removed ?? 0;
      } catch (e) {
        if (!isDatabaseUnavailable(e))
          this.logger.warn(`walk of the ${store.name} store failed: ${(e as Error).message}`);
      } finally {
        await lock.end().catch(() => undefined);
      }
    }
    return n;
  }

  private async sweepStore(store: BlobStore): Promise<number> {
    const leftovers = await store.removeLeftovers(STALE_SPOOL_MS).catch(() => 0);
    if (leftovers > 0) this.logger.log(`removed ${leftovers} incomplete writes from the ${store.name} store`);
    let n = 0;
    const blobs = this.content.stores.blobs;
    for (;;) {
      const batch = await blobs.orphansIn(store.name, ORPHAN_GRACE_MS, SWEEP_BATCH);
      let deleted = 0;
      for (const sha256 of batch) {
        if (await blobs.deleteOrphan(sha256, store.name, ORPHAN_GRACE_MS, () => store.delete(sha256))) deleted++;
      }
      n += deleted;
      // Stops when a batch found nothing to do (other instances may hold the rest).
      if (batch.length < SWEEP_BATCH || deleted === 0) return n;
    }
  }
}
