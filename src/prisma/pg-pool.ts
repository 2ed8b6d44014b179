import pg from 'pg';
import type { AppConfig } from '../config/app-config.js';

/**
 * A connection pool of DB_POOL_MAX connections to DATABASE_URL (or `url`, e.g. the replica's)
 * with the service's connect and idle limits. `statementTimeoutMs` (0: none) and `readOnly` are
 * set on each connection as it opens, so they cost no statement per query.
 */
export function createPgPool(
  config: AppConfig,
  opts: { statementTimeoutMs: number; readOnly?: boolean; url?: string },
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: opts.url ?? config.databaseUrl,
    max: config.dbPoolMax,
    connectionTimeoutMillis: config.dbConnectTimeoutMs,
    idleTimeoutMillis: config.dbPoolIdleTimeoutMs,
    ...(opts.statementTimeoutMs > 0 && { statement_timeout: opts.statementTimeoutMs }),
    ...(opts.readOnly && { options: '-c default_transaction_read_only=on' }),
  });
  // An idle connection the server dropped must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}
