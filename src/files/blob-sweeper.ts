import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import pg from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { isDatabaseUnavailable } from '../common/database-errors.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { deleteOrphan, orphansIn, sweepOrphanBlobs } from './blob-records.js';
import type { BlobStore } from './blob-store.js';
import { FileContent } from './file-content.js';
import { sweepUnrecordedBlobs } from './store-walk.js';
import { removeStaleSpools } from './upload-spool.js';

/** Bytes stored this recently are never swept: an upload may not have recorded its file yet. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
/** Spool files of uploads older than this were left by a process that died mid-upload. */
export const STALE_SPOOL_MS = 24 * 60 * 60 * 1000;
/** Orphans of an external store deleted per query of candidates. */
const SWEEP_BATCH = 100;

/**
 * Deletes, every FILES_SWEEP_INTERVAL_MS, the file bytes that no file uses any more (in every
 * store this instance is configured for), upload spool files that a killed process left in the
 * temporary folder, and what such a process left half-written in a store. Several instances
 * may sweep at once: each deletion re-checks its condition under a row lock, so they do no harm.
 * Then it walks the vault and the bucket for bytes no row names at all (store-walk.ts): one
 * instance at a time, at most FILES_STORE_SWEEP_RATE blobs a second.
 */
@Injectable()
export class BlobSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BlobSweeper');
  private timer?: NodeJS.Timeout;
  /** A walk of the stores is under way (it may outlast the interval). */
  private walking = false;
  private stopping = false;

  constructor(
    private readonly prisma: PrismaService,
    private readonly content: FileContent,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.filesSweepIntervalMs === 0) return;
    this.timer = setInterval(() => void this.sweep(), this.config.filesSweepIntervalMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
    this.stopping = true;
  }

  /** Sweeps once; returns how many blobs went. */
  async sweep(): Promise<number> {
    const spools = await removeStaleSpools(STALE_SPOOL_MS).catch(() => 0);
    if (spools > 0) this.logger.log(`removed ${spools} upload spool files left by an earlier process`);
    let n = 0;
    try {
      n += await sweepOrphanBlobs(this.prisma.pgPool, ORPHAN_GRACE_MS);
      for (const store of this.content.stores.all()) {
        if (store.name !== 'postgres') n += await this.sweepStore(store);
      }
    } catch (e) {
      if (!isDatabaseUnavailable(e)) this.logger.error(`sweep failed: ${(e as Error).message}`);
    }
    if (n > 0) this.logger.log(`deleted the bytes of ${n} files no longer used`);
    return n + (await this.walkStores());
  }

  /**
   * Walks each external store for bytes that no row names (a claim lost in a database crash)
   * and removes those older than FILES_STORE_SWEEP_GRACE_MS. Returns how many went. A walk still
   * under way from an earlier sweep is not started again.
   */
  async walkStores(): Promise<number> {
    if (this.config.filesStoreSweepRate === 0 || this.walking) return 0;
    const stores = this.content.stores.all().filter((s) => s.name !== 'postgres');
    if (!stores.length) return 0;
    this.walking = true;
    let n = 0;
    try {
      for (const store of stores) {
        if (this.stopping) break;
        const lock = new pg.Client({
          connectionString: this.config.databaseUrl,
          connectionTimeoutMillis: this.config.dbConnectTimeoutMs,
        });
        lock.on('error', () => undefined); // the walk's next check of the lock reports it
        try {
          await lock.connect();
          const result = await sweepUnrecordedBlobs(this.prisma.pgPool, lock, store, {
            graceMs: this.config.filesStoreSweepGraceMs,
            ratePerSecond: this.config.filesStoreSweepRate,
            stopped: () => this.stopping,
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
    } finally {
      this.walking = false;
    }
    return n;
  }

  private async sweepStore(store: BlobStore): Promise<number> {
    const leftovers = await store.removeLeftovers(STALE_SPOOL_MS).catch(() => 0);
    if (leftovers > 0) this.logger.log(`removed ${leftovers} incomplete writes from the ${store.name} store`);
    let n = 0;
    const pool = this.prisma.pgPool;
    for (;;) {
      const batch = await orphansIn(pool, store.name, ORPHAN_GRACE_MS, SWEEP_BATCH);
      let deleted = 0;
      for (const sha256 of batch) {
        if (await deleteOrphan(pool, sha256, store.name, ORPHAN_GRACE_MS, () => store.delete(sha256))) deleted++;
      }
      n += deleted;
      // Stops when a batch found nothing to do (other instances may hold the rest).
      if (batch.length < SWEEP_BATCH || deleted === 0) return n;
    }
  }
}
