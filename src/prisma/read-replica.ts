import { Inject, Injectable, Logger } from '@nestjs/common';
import pg from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { isDatabaseUnavailable, sqlState } from '../common/database-errors.js';
import { DatabasePools } from './database-pools.js';
import { dropConnection } from '../patches/pg-drop-connection.js';

/** After the replica was found unable to answer, reads go to the primary this long before it is tried again. */
const RETRY_AFTER_MS = 5000;

/** A read given up on the replica because it does not answer (see ReadReplica.watched). */
class ReplicaSilentError extends Error {}

/**
 * The streaming replica of DATABASE_REPLICA_URL, for reads that may lag behind the primary
 * (reports, pages of query sessions whose snapshot the replica has; see docs/deployment.md for
 * the rule). Every read has a fallback on the primary, taken when there is no replica, when it
 * was unreachable or silent in the last few seconds, or when it cancelled the read for a conflict
 * with recovery: a replica that is down, hung or behind slows nothing down much and answers
 * nothing wrong.
 */
@Injectable()
export class ReadReplica {
  private readonly logger = new Logger('ReadReplica');
  private unavailableUntil = 0;
  /** DB_REPLICA_TIMEOUT_MS. */
  private readonly timeoutMs: number;
  /** Every open connection to the replica, of both pools: all are dropped when it hangs. */
  private readonly connections = new Set<pg.ClientBase>();
  /** The check of the replica under way (see answers), shared by every read that waits meanwhile. */
  private check: Promise<boolean> | null = null;

  constructor(
    private readonly pools: DatabasePools,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.timeoutMs = config.dbReplicaTimeoutMs;
    for (const pool of [pools.replica, pools.replicaReports]) {
      pool?.on('connect', (client) => {
        this.connections.add(client);
        client.once('end', () => this.connections.delete(client));
        // Dropping a connection in use makes it emit 'error' (its query fails as well): without a
        // listener, that would end the process.
        client.on('error', () => undefined);
      });
    }
  }

  /** A replica is configured and was not found unable to answer lately. */
  get usable(): boolean {
    return this.config.databaseReplicaUrl !== '' && Date.now() >= this.unavailableUntil;
  }

  /** Reads go to the primary for a few seconds; `why` is logged once for that time. */
  private setAside(why: string): void {
    if (Date.now() >= this.unavailableUntil)
      this.logger.warn(`${why}, reading from the primary for ${RETRY_AFTER_MS / 1000} s`);
    this.unavailableUntil = Date.now() + RETRY_AFTER_MS;
  }

  /**
   * Whether a read that failed on the replica should be made on the primary instead: the
   * replica is unreachable or silent (then it is left alone for a few seconds) or it cancelled
   * the read because replaying the primary's changes needed what the read was using.
   */
  private fallsBack(error: unknown): boolean {
    if (error instanceof ReplicaSilentError) return true;
    if (isDatabaseUnavailable(error)) {
      this.setAside('replica unreachable');
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
    const statementTimeoutMs = pool === 'reports' ? this.config.reportTimeoutMs : this.config.dbStatementTimeoutMs;
    let answer: T | undefined;
    try {
      answer = await this.watched(read(replica), statementTimeoutMs);
    } catch (e) {
      if (!this.fallsBack(e)) throw e;
    }
    return answer === undefined ? primary() : answer;
  }

  /**
   * A read on the replica, given up (ReplicaSilentError) when the replica does not answer: a
   * server whose processes hang keeps its connections open and accepts new ones, so neither a
   * refused connection nor TCP keepalive tells. Every DB_REPLICA_TIMEOUT_MS the read has not
   * answered, the replica is checked on a connection of its own (`answers`); a read may run long
   * (a report, up to REPORT_TIMEOUT_MS) while the replica answers that. It is also given up once
   * the replica should have cancelled it at its statement timeout and did not. Giving up drops
   * every connection to the replica (the reads on them fail at once and are made on the primary)
   * and sets the replica aside for a few seconds.
   */
  private async watched<T>(read: Promise<T>, statementTimeoutMs: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const deadline = statementTimeoutMs > 0 ? Date.now() + statementTimeoutMs + this.timeoutMs : Infinity;
    const silent = new Promise<never>((_, reject) => {
      const giveUp = (why: string) => {
        this.setAside(why);
        this.dropConnections();
        reject(new ReplicaSilentError(why));
      };
      const watch = () => {
        timer = setTimeout(() => {
          if (settled) return;
          if (Date.now() >= deadline) {
            giveUp('the replica did not end a read at its statement timeout');
            return;
          }
          void this.answers().then((alive) => {
            if (settled) return;
            if (alive) watch();
            else giveUp(`the replica did not answer within ${this.timeoutMs} ms (DB_REPLICA_TIMEOUT_MS)`);
          });
        }, this.timeoutMs);
      };
      watch();
    });
    try {
      return await Promise.race([read, silent]);
    } finally {
      settled = true;
      clearTimeout(timer);
    }
  }

  /**
   * Whether the replica answers `SELECT 1` on a new connection within DB_REPLICA_TIMEOUT_MS
   * (an error from the server is an answer too, e.g. too many connections). One check at a time.
   */
  private answers(): Promise<boolean> {
    this.check ??= this.ask().finally(() => {
      this.check = null;
    });
    return this.check;
  }

  private async ask(): Promise<boolean> {
    const client = new pg.Client({
      connectionString: this.config.databaseReplicaUrl,
      connectionTimeoutMillis: this.timeoutMs,
      query_timeout: this.timeoutMs,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (e) {
      // Not end(): that waits for the server, which may be the one not answering.
      dropConnection(client);
      return sqlState(e) !== null;
    }
    void client.end().catch(() => undefined);
    return true;
  }

  /** Closes every connection to the replica at once, also those in use, without asking the server. */
  private dropConnections(): void {
    for (const client of this.connections) dropConnection(client);
  }
}
