import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { isDatabaseUnavailable } from '../common/database-errors.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { sweepOrphanBlobs } from './blob-store.js';
import { removeStaleSpools } from './upload-spool.js';

/** Bytes stored this recently are never swept: an upload may not have recorded its file yet. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
/** Spool files of uploads older than this were left by a process that died mid-upload. */
export const STALE_SPOOL_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes, every FILES_SWEEP_INTERVAL_MS, the file bytes that no file uses any more, and upload
 * spool files that a killed process left in the temporary folder. Several instances may sweep
 * at once: each deletion re-checks its condition, so they do no harm.
 */
@Injectable()
export class BlobSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BlobSweeper');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.filesSweepIntervalMs === 0) return;
    this.timer = setInterval(() => void this.sweep(), this.config.filesSweepIntervalMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async sweep(): Promise<number> {
    const spools = await removeStaleSpools(STALE_SPOOL_MS).catch(() => 0);
    if (spools > 0) this.logger.log(`removed ${spools} upload spool files left by an earlier process`);
    try {
      const n = await sweepOrphanBlobs(this.prisma.pgPool, ORPHAN_GRACE_MS);
      if (n > 0) this.logger.log(`deleted the bytes of ${n} files no longer used`);
      return n;
    } catch (e) {
      if (!isDatabaseUnavailable(e)) this.logger.error(`sweep failed: ${(e as Error).message}`);
      return 0;
    }
  }
}
