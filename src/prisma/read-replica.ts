import { Inject, Injectable, Logger } from '@nestjs/common';
import type pg from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { isDatabaseUnavailable, sqlState } from '../common/database-errors.js';
import { DatabasePools } from './database-pools.js';

/** After the replica was found unreachable, reads go to the primary this long before it is tried again. */
const RETRY_AFTER_MS = 5000;

/**
 * The streaming replica of DATABASE_REPLICA_URL, for reads that may lag behind the primary
 * (reports, pages of query sessions whose snapshot the replica has; see docs/deployment.md for
 * the rule). Every read has a fallback on the primary, taken when there is no replica, when it
 * was unreachable in the last few seconds, or when it cancelled the read for a conflict with
 * recovery: a replica that is down or behind slows nothing down and answers nothing wrong.
 */
@Injectable()
export class ReadReplica {
  private readonly logger = new Logger('ReadReplica');
  private unavailableUntil = 0;

  constructor(
    private readonly pools: DatabasePools,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A replica is configured and was not found unreachable lately. */
  get usable(): boolean {
    return this.config.databaseReplicaUrl !== '' && Date.now() >= this.unavailableUntil;
  }

  /**
   * Whether a read that failed on the replica should be made on the primary instead: the
   * replica is unreachable (then it is left alone for a few seconds) or it cancelled the read
   * because replaying the primary's changes needed what the read was using.
   */
  private fallsBack(error: unknown): boolean {
    if (isDatabaseUnavailable(error)) {
      if (Date.now() >= this.unavailableUntil) {
        this.logger.warn(`replica unreachable, reading from the primary for ${RETRY_AFTER_MS / 1000} s`);
      }
      this.unavailableUntil = Date.now() + RETRY_AFTER_MS;
      return true;
    }
    const message = error instanceof Error ? error.message : '';
    return sqlState(error)?.code === '40001' || /conflict with recovery/.test(message);
  }

  /**
   * `read` on the replica, or `primary` when there is none or the replica cannot answer. `read`
   * may return undefined to say that the replica does not have what is asked for yet. It gets
   * the replica's pool for reads (DatabasePools.replica), or for reports with `reports`.
   */
  async read<T>(
    read: (pool: pg.Pool) => Promise<T | undefined>,
    primary: () => Promise<T>,
    pool: 'reads' | 'reports' = 'reads',
  ): Promise<T> {
    const replica = pool === 'reports' ? this.pools.replicaReports : this.pools.replica;
    if (!replica || !this.usable) return primary();
    let answer: T | undefined;
    try {
      answer = await read(replica);
    } catch (e) {
      if (!this.fallsBack(e)) throw e;
    }
    return answer === undefined ? primary() : answer;
  }
}
