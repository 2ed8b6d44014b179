import { Inject, Injectable } from '@nestjs/common';
import { OBJECT_BUSY_MESSAGE } from '../common/database-errors.js';
import { HttpErrorWithHeaders } from '../common/http-errors.js';
import { Turns } from '../common/turns.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { Prisma } from '../generated/prisma/client.js';

/** 503 with Retry-After: the change waited DB_LOCK_TIMEOUT_MS for another change of the same object. */
export function objectBusy(): HttpErrorWithHeaders {
  return new HttpErrorWithHeaders(503, OBJECT_BUSY_MESSAGE, { 'Retry-After': '1' });
}

/**
 * A condition for the WHERE of a statement that locks a row (or, without FROM, takes an advisory
 * lock): from it on, no lock wait of the transaction lasts longer than `timeoutMs`, past which
 * PostgreSQL fails the statement with 55P03, answered 503 with Retry-After (database-errors.ts).
 * It is evaluated on the row before the row is locked, so the wait for that lock is bounded too.
 */
export function boundLockWaits(timeoutMs: number): Prisma.Sql {
  return Prisma.sql`set_config('lock_timeout', ${String(timeoutMs)}, true) IS NOT NULL`;
}

/** The same condition in plain pg SQL, its value as parameter `$n`. */
export function boundLockWaitsPg(n: number): string {
  return `set_config('lock_timeout', $${n}, true) IS NOT NULL`;
}

/**
 * Changes of one business object wait for each other: each locks the object's master row first.
 * A change that waits for that lock in PostgreSQL holds a pooled connection meanwhile, so twenty
 * parallel changes of one object would take every connection and leave other users' reads
 * waiting for one. Changes that know the master before their transaction wait their turn here
 * instead, without a connection: on one instance, at most one of them per object holds a
 * connection. Waits in PostgreSQL (another instance's change, a path that does not take turns)
 * are bounded by the same DB_LOCK_TIMEOUT_MS (boundLockWaits).
 */
@Injectable()
export class ObjectLocks {
  readonly timeoutMs: number;
  /** Per master id. */
  private readonly turns: Turns<number>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.timeoutMs = config.dbLockTimeoutMs;
    this.turns = new Turns(this.timeoutMs, objectBusy);
  }

  /**
   * Runs `work` (a transaction that locks master `masterId`) once the changes of that master that
   * took their turn before have ended; answers 503 (objectBusy) if that takes longer than
   * DB_LOCK_TIMEOUT_MS. A change that gives up keeps its place for those after it.
   */
  inTurn<T>(masterId: number, work: () => Promise<T>): Promise<T> {
    return this.turns.inTurn(masterId, work);
  }
}
