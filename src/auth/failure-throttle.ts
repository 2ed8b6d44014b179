import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PeriodicTask } from '../common/periodic-task.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { UserRecord } from './users.repository.js';

/** Attempts per client address allowed for every one allowed per (user name, address). */
export const ADDRESS_LIMIT_FACTOR = 10;

/**
 * Slows down password guessing. Attempts are counted per (user name, client address) and per
 * client address before the password is checked (a reservation), and given back when the
 * password was right: so parallel guesses cannot all pass a check made before any of them
 * failed. Past the limit within the window, further attempts from that pair (or that address)
 * are refused until the window has passed. A real user at another address is never locked out
 * by someone else's guesses.
 *
 * The counts live in PostgreSQL (the unlogged table auth_failures), so the limits hold across
 * every instance of the service; windows run on the database's clock. Each call is one
 * statement on the primary; auth_failure_reserve checks and counts in one step under a lock
 * per address (see its migration).
 */
@Injectable()
export class FailureThrottle implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('FailureThrottle');
  private readonly limit: number;
  private readonly windowMs: number;
  /** Deletes counts whose window has passed, every window (at least every minute). */
  private readonly sweeper: PeriodicTask;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = config.authFailureLimit;
    this.windowMs = config.authFailureWindowMs;
    this.sweeper = new PeriodicTask({
      name: 'sweeping sign-in failure counts',
      intervalMs: Math.max(this.windowMs, 60_000),
      run: () => this.sweep(),
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.sweeper.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.sweeper.stop();
  }

  /** Seconds to wait before trying again, or 0 when an attempt may go ahead. */
  async retryAfter(name: string, address: string): Promise<number> {
    const k = keys(name, address);
    const { rows } = await this.prisma.pgPool.query<{ wait: number | null }>({
      text: `SELECT max(greatest(1, ceil(extract(epoch FROM reset_at - clock_timestamp()))))::integer AS wait
             FROM auth_failures
             WHERE reset_at > clock_timestamp()
               AND ((key = $1 AND count >= $3) OR (key = $2 AND count >= $4))`,
      values: [k.pair, k.address, this.limit, this.limit * ADDRESS_LIMIT_FACTOR],
    });
    return rows[0]?.wait ?? 0;
  }

  /**
   * What a cached sign-in needs on every request, in one prepared statement: the seconds the
   * (user, address) must still wait (0: none), and the user's row as it is now (null: gone).
   */
  async confirm(name: string, address: string, userId: number): Promise<{ wait: number; row: UserRecord | null }> {
    const k = keys(name, address);
    const { rows } = await this.prisma.pgPool.query<UserRecord & { wait: number | null; found: boolean }>({
      name: 'auth-confirm',
      text: `SELECT u.id IS NOT NULL AS found, u.id, u.name, u.password_hash AS "passwordHash", u.admin,
                    u.full_name AS "fullName", u.email, u.disabled,
                    (SELECT max(greatest(1, ceil(extract(epoch FROM reset_at - clock_timestamp()))))::integer
                     FROM auth_failures
                     WHERE reset_at > clock_timestamp()
                       AND ((key = $1 AND count >= $3) OR (key = $2 AND count >= $4))) AS wait
             FROM (SELECT 1) one LEFT JOIN users u ON u.id = $5`,
      values: [k.pair, k.address, this.limit, this.limit * ADDRESS_LIMIT_FACTOR, userId],
    });
    const { wait, found, ...row } = rows[0];
    return { wait: wait ?? 0, row: found ? row : null };
  }

  /**
   * Counts an attempt about to be checked, unless the limit is reached: then nothing is counted
   * and the seconds to wait are returned. 0 means the attempt was counted and may go ahead.
   */
  async reserve(name: string, address: string): Promise<number> {
    const { rows } = await this.prisma.pgPool.query<{ wait: number }>(
      reserveSql(name, address, this.limit, this.windowMs),
    );
    return rows[0].wait;
  }

  /** The reserved attempt was right: the pair's failures are forgotten, the address's attempt given back. */
  async refund(name: string, address: string): Promise<void> {
    const k = keys(name, address);
    await this.prisma.pgPool.query({
      text: `WITH pair AS (DELETE FROM auth_failures WHERE key = $1)
             UPDATE auth_failures SET count = count - 1 WHERE key = $2 AND count > 0`,
      values: [k.pair, k.address],
    });
  }

  /** Deletes counts whose window has passed (they count as nothing already). */
  async sweep(): Promise<number> {
    const res = await this.prisma.pgPool.query('DELETE FROM auth_failures WHERE reset_at <= clock_timestamp()');
    return res.rowCount ?? 0;
  }
}

/** The statement that checks and counts one attempt; its `wait` is 0 when it was counted. */
export function reserveSql(name: string, address: string, limit: number, windowMs: number) {
  const k = keys(name, address);
  return {
    text: 'SELECT auth_failure_reserve($1, $2, $3, $4, $5, $6) AS wait',
    values: [k.pair, k.address, k.addressLock, limit, limit * ADDRESS_LIMIT_FACTOR, windowMs],
  };
}

/**
 * The rows' keys: SHA-256 of the pair and of the address (a user name never holds a colon in
 * Basic credentials, but the NUL separators keep the keys apart whatever they hold), and the
 * address's lock key, the first 8 bytes of its hash.
 */
export function keys(name: string, address: string): { pair: Buffer; address: Buffer; addressLock: string } {
  const pair = createHash('sha256').update('u\u0000').update(name).update('\u0000').update(address).digest();
  const addr = createHash('sha256').update('a\u0000').update(address).digest();
  return { pair, address: addr, addressLock: addr.readBigInt64BE(0).toString() };
}
