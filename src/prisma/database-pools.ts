import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import pg from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { guardPool } from './pg-connection-loss.js';

/**
 * Every PostgreSQL connection pool of the service, made from the validated configuration and
 * closed when the application stops. Each holds up to DB_POOL_MAX connections with the
 * configured connect and idle limits; its statement timeout and read-only mode are set on each
 * connection as it opens, so they cost no statement per query. Pools open their connections
 * when first used: a pool nothing reads from costs nothing.
 *
 * Nest destroys a provider after those that depend on it, so the pools close once every user
 * of them has stopped (PrismaService, ReadReplica, the repositories of the services).
 *
 * A connection the server ends (a restart, pg_terminate_backend) is logged and dropped, whether
 * idle in its pool or checked out by a request (which gets 503): see guardPool.
 */
@Injectable()
export class DatabasePools implements OnModuleDestroy {
  /**
   * The primary (DATABASE_URL), under Prisma (PrismaService), also used directly for bulk bytes
   * and prepared statements. Sharing one pool keeps DB_POOL_MAX the limit for all of that (the
   * embedded database allows one connection).
   */
  readonly primary: pg.Pool;
  /**
   * Reports on the primary: read-only, with REPORT_TIMEOUT_MS as statement timeout. Null with a
   * pool of one connection (the embedded database): reports then run on `primary`, in a
   * read-only transaction with the same limits.
   */
  readonly reports: pg.Pool | null;
  /** The replica (DATABASE_REPLICA_URL), read-only: pages of query sessions, file listings. Null without one. */
  readonly replica: pg.Pool | null;
  /** Reports on the replica, as `reports` on the primary. Null without a replica. */
  readonly replicaReports: pg.Pool | null;

  private readonly logger = new Logger('DatabasePools');

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const reports = { statementTimeoutMs: config.reportTimeoutMs, readOnly: true };
    const replica = config.databaseReplicaUrl || null;
    const pool = (name: string, opts: PoolOptions) =>
      guardPool(createPgPool(config, opts), (message) => this.logger.warn(`${name} pool: ${message}`));
    this.primary = pool('primary', { statementTimeoutMs: config.dbStatementTimeoutMs });
    this.reports = config.dbPoolMax > 1 ? pool('report', reports) : null;
    this.replica = replica
      ? pool('replica', { url: replica, statementTimeoutMs: config.dbStatementTimeoutMs, readOnly: true })
      : null;
    this.replicaReports = replica ? pool('replica report', { ...reports, url: replica }) : null;
  }

  async onModuleDestroy(): Promise<void> {
    // A read that fails on the replica is made again on the primary: the primary closes last.
    await Promise.all([this.reports?.end(), this.replica?.end(), this.replicaReports?.end()]);
    await this.primary.end();
  }
}

/** A connection idle this long gets TCP keepalive probes (their interval and count are the system's). */
const KEEPALIVE_AFTER_MS = 10_000;

interface PoolOptions {
  statementTimeoutMs: number;
  readOnly?: boolean;
  url?: string;
}

/**
 * A pool of DB_POOL_MAX connections to DATABASE_URL (or `url`, the replica's) with the service's
 * connect and idle limits. `statementTimeoutMs` (0: none) and `readOnly` hold for each connection.
 */
function createPgPool(config: AppConfig, opts: PoolOptions): pg.Pool {
  return new pg.Pool({
    connectionString: opts.url ?? config.databaseUrl,
    max: config.dbPoolMax,
    connectionTimeoutMillis: config.dbConnectTimeoutMs,
    idleTimeoutMillis: config.dbPoolIdleTimeoutMs,
    // A server gone without closing its connections (a host down, a network cut) is noticed by
    // the system's keepalive probes, and no firewall drops an idle pooled connection unseen.
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_AFTER_MS,
    ...(opts.statementTimeoutMs > 0 && { statement_timeout: opts.statementTimeoutMs }),
    ...(opts.readOnly && { options: '-c default_transaction_read_only=on' }),
  });
}
