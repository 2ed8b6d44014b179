import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PeriodicTask } from '../common/periodic-task.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { AuthFailuresRepository, type FailureKeys, type FailureLimits } from './auth-failures.repository.js';
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
 * The counts live in PostgreSQL (the unlogged table auth_failures, AuthFailuresRepository), so
 * the limits hold across every instance of the service; windows run on the database's clock.
 * Each call is one statement on the primary.
 */
@Injectable()
export class FailureThrottle implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('FailureThrottle');
  /** The attempts a (user, address) and an address get within the window. */
  readonly limits: FailureLimits;
  /** How long failures are counted (ms). */
  readonly windowMs: number;
  /** Deletes counts whose window has passed, every window (at least every minute). */
  private readonly sweeper: PeriodicTask;

  constructor(
    private readonly failures: AuthFailuresRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limits = { pair: config.authFailureLimit, address: config.authFailureLimit * ADDRESS_LIMIT_FACTOR };
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
  retryAfter(name: string, address: string): Promise<number> {
    return this.failures.retryAfter(keys(name, address), this.limits);
  }

  /**
   * What a cached sign-in needs on every request, in one prepared statement: the seconds the
   * (user, address) must still wait (0: none), and the user's row as it is now (null: gone).
   */
  confirm(name: string, address: string, userId: number): Promise<{ wait: number; row: UserRecord | null }> {
    return this.failures.confirm(keys(name, address), this.limits, userId);
  }

  /**
   * Counts an attempt about to be checked, unless the limit is reached: then nothing is counted
   * and the seconds to wait are returned. 0 means the attempt was counted and may go ahead.
   */
  reserve(name: string, address: string): Promise<number> {
    return this.failures.reserve(keys(name, address), this.limits, this.windowMs);
  }

  /** The reserved attempt was right: the pair's failures are forgotten, the address's attempt given back. */
  async refund(name: string, address: string): Promise<void> {
    await this.failures.refund(keys(name, address));
  }

  /** Deletes counts whose window has passed (they count as nothing already). */
  sweep(): Promise<number> {
    return this.failures.sweep();
  }
}

/**
 * The name personal access tokens are counted under, with the client address: a user name never
 * holds a NUL (parseBasicAuth refuses it), so it is no user's. Guessing tokens from an address is
 * then limited like guessing one user's password.
 */
export const TOKEN_PSEUDO_NAME = '\u0000token';

/**
 * The rows' keys: SHA-256 of the pair and of the address (a user name never holds a colon in
 * Basic credentials, but the NUL separators keep the keys apart whatever they hold), and the
 * address's lock key, the first 8 bytes of its hash.
 */
export function keys(name: string, address: string): FailureKeys {
  const pair = createHash('sha256').update('u\u0000').update(name).update('\u0000').update(address).digest();
  const addr = createHash('sha256').update('a\u0000').update(address).digest();
  return { pair, address: addr, addressLock: addr.readBigInt64BE(0).toString() };
}
