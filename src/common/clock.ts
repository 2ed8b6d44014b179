import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client.js';

/**
 * The time that expiring state is measured against. Code whose expiry a test must reach takes
 * the time from here instead of calling `Date.now()` or writing `now()` in its SQL, so that the
 * test moves the clock forward (test/helpers/fake-clock.ts) instead of waiting.
 */
@Injectable()
export class Clock {
  /** The time now, on this process's clock. */
  now(): Date {
    return new Date();
  }

  /**
   * The database's time, as a fragment for a statement: `now()`, the start of the transaction.
   * Use it where rows written by several instances are compared, as their clocks may differ.
   */
  nowSql(): Prisma.Sql {
    return Prisma.sql`now()`;
  }
}
