import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';
import type { UserRecord } from './users.repository.js';

/** The rows of one attempt (see keys() in failure-throttle.ts): its (user, address) and its address. */
export interface FailureKeys {
  pair: Buffer;
  address: Buffer;
  /** The address's lock key, the first 8 bytes of its hash. */
  addressLock: string;
}

/** How many attempts a (user, address) and an address get within the window. */
export interface FailureLimits {
  pair: number;
  address: number;
}

/**
 * The unlogged table auth_failures, the sign-in failure counts every instance shares (its rules
 * are in FailureThrottle). Each call is one statement on the primary; windows run on the
 * database's clock.
 */
@Injectable()
export class AuthFailuresRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Seconds to wait before trying again, or 0 when an attempt may go ahead. */
  async retryAfter(k: FailureKeys, limits: FailureLimits): Promise<number> {
    const { rows } = await this.prisma.pgPool.query<{ wait: number | null }>({
      text: `SELECT max(greatest(1, ceil(extract(epoch FROM reset_at - clock_timestamp()))))::integer AS wait
             FROM auth_failures
             WHERE reset_at > clock_timestamp()
               AND ((key = $1 AND count >= $3) OR (key = $2 AND count >= $4))`,
      values: [k.pair, k.address, limits.pair, limits.address],
    });
    return rows[0]?.wait ?? 0;
  }

  /**
   * In one prepared statement: the seconds the (user, address) must still wait (0: none), and
   * the user's row as it is now (null: gone).
   */
  async confirm(
    k: FailureKeys,
    limits: FailureLimits,
    userId: number,
  ): Promise<{ wait: number; row: UserRecord | null }> {
    const { rows } = await this.prisma.pgPool.query<UserRecord & { wait: number | null; found: boolean }>({
      name: 'auth-confirm',
      text: `SELECT u.id IS NOT NULL AS found, u.id, u.name, u.password_hash AS "passwordHash", u.admin,
                    u.full_name AS "fullName", u.email, u.disabled,
                    (SELECT max(greatest(1, ceil(extract(epoch FROM reset_at - clock_timestamp()))))::integer
                     FROM auth_failures
                     WHERE reset_at > clock_timestamp()
                       AND ((key = $1 AND count >= $3) OR (key = $2 AND count >= $4))) AS wait
             FROM (SELECT 1) one LEFT JOIN users u ON u.id = $5`,
      values: [k.pair, k.address, limits.pair, limits.address, userId],
    });
    const { wait, found, ...row } = rows[0];
    return { wait: wait ?? 0, row: found ? row : null };
  }

  /**
   * Counts an attempt unless a limit is reached: then nothing is counted and the seconds to wait
   * are returned; 0 means it was counted.
   */
  async reserve(k: FailureKeys, limits: FailureLimits, windowMs: number): Promise<number> {
    const { rows } = await this.prisma.pgPool.query<{ wait: number }>(reserveSql(k, limits, windowMs));
    return rows[0].wait;
  }

  /** Forgets the pair's failures and gives the address's attempt back. */
  async refund(k: FailureKeys): Promise<void> {
    await this.prisma.pgPool.query({
      text: `WITH pair AS (DELETE FROM auth_failures WHERE key = $1)
             UPDATE auth_failures SET count = count - 1 WHERE key = $2 AND count > 0`,
      values: [k.pair, k.address],
    });
  }

  /** Deletes counts whose window has passed; returns how many. */
  async sweep(): Promise<number> {
    const res = await this.prisma.pgPool.query('DELETE FROM auth_failures WHERE reset_at <= clock_timestamp()');
    return res.rowCount ?? 0;
  }
}

/**
 * The statement that checks and counts one attempt; its `wait` is 0 when it was counted.
 * auth_failure_reserve checks and counts in one step under a lock per address (see its migration).
 */
export function reserveSql(k: FailureKeys, limits: FailureLimits, windowMs: number) {
  return {
    text: 'SELECT auth_failure_reserve($1, $2, $3, $4, $5, $6) AS wait',
    values: [k.pair, k.address, k.addressLock, limits.pair, limits.address, windowMs],
  };
}
