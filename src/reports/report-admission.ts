import { HttpErrorWithHeaders } from '../common/http-errors.js';
import type { AppConfig } from '../config/app-config.js';

/** Retry-After of a report refused past the user's share: most reports take well under this. */
const RETRY_AFTER_S = 1;

/**
 * Which reports an instance lets onto its report pool, so that a few users cannot take every
 * connection from the others. REPORT_MAX_CONCURRENT_PER_USER caps each user on all instances
 * (advisory locks), but several users at that cap fill a pool of DB_POOL_MAX connections, and
 * everyone else's reports wait for a connection until DB_CONNECT_TIMEOUT_MS and fail (503).
 *
 * So a user's first report on the instance is always let through (it waits for a connection if
 * the pool is full of other users' first reports: a share of one each), while a second or further
 * one is refused (429 with Retry-After) when it would leave fewer than `reserved` connections of
 * the pool to users running none. A lone user still runs up to their cap; under
 * load, the last `reserved` connections stay for newcomers. The count is per instance, as the
 * pool is; it counts reports from their admission, waiting for a connection included, to their
 * end, whichever pool (replica or primary) they end up on: one connection each.
 */
export class ReportAdmission {
  private readonly running = new Map<number, number>();
  private total = 0;

  constructor(
    private readonly capacity: number,
    readonly reserved: number,
  ) {}

  /** Admits a report of the user, or throws the 429 of a user past their share; the function returned ends it (once). */
  admit(userId: number): () => void {
    const mine = this.running.get(userId) ?? 0;
    if (mine > 0 && this.total >= this.capacity - this.reserved) throw this.busy(mine);
    this.running.set(userId, mine + 1);
    this.total++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.total--;
      const left = (this.running.get(userId) ?? 1) - 1;
      if (left > 0) this.running.set(userId, left);
      else this.running.delete(userId);
    };
  }

  private busy(running: number): HttpErrorWithHeaders {
    const kept = `${this.reserved} connection${this.reserved === 1 ? '' : 's'}`;
    return new HttpErrorWithHeaders(
      429,
      `the report pool of this instance is busy: you already run ${running} report(s) here, and its last ${kept} ` +
        'are kept for users running none (REPORT_POOL_RESERVED); retry when one has finished',
      { 'Retry-After': String(RETRY_AFTER_S) },
    );
  }
}

/**
 * The connections of the report pool kept for users running no report there: REPORT_POOL_RESERVED,
 * by default a quarter of DB_POOL_MAX (at least one), at most DB_POOL_MAX − 1. None with a pool of
 * one connection (the embedded database: reports queue, one per user) or without a per-user limit
 * (REPORT_MAX_CONCURRENT_PER_USER=0: load tests of one user, single-user deployments).
 */
export function reservedReportConnections(
  config: Pick<AppConfig, 'reportPoolReserved' | 'reportMaxConcurrentPerUser' | 'dbPoolMax'>,
): number {
  if (config.reportMaxConcurrentPerUser === 0 || config.dbPoolMax <= 1) return 0;
  const wanted = config.reportPoolReserved ?? Math.max(1, Math.floor(config.dbPoolMax / 4));
  return Math.min(wanted, config.dbPoolMax - 1);
}
