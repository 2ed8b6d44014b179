import { Clock } from '../../src/common/clock.js';
import { Prisma } from '../../src/generated/prisma/client.js';

/**
 * A Clock that a test moves forward: both times, the process's and the database's, run on,
 * plus what `advance` added. Given in place of Clock (`overrideProvider(Clock)`, or a provider
 * `{ provide: Clock, useValue: clock }`), it lets a test reach an expiry without waiting for it.
 */
export class FakeClock extends Clock {
  private offsetMs = 0;

  /** Moves both times forward by `ms`. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  override now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  override nowSql(): Prisma.Sql {
    return Prisma.sql`(now() + ${this.offsetMs}::bigint * interval '1 millisecond')`;
  }
}
