import { Injectable } from '@nestjs/common';
import type { AuditEvent } from '../../audit/audit-events.js';
import { auditViaPrisma, recordAudit } from '../../audit/audit.repository.js';
import { PrismaService } from '../../prisma/prisma.service.js';

export interface DeadLetterRow {
  id: bigint;
  eventId: bigint;
  attempts: number;
  lastError: string;
  failedAt: Date;
  requeuedAt: Date | null;
}

/** event_dead_letters as the HTTP API reads and queues them again (delivery: delivery.repository.ts). */
@Injectable()
export class DeadLettersRepository {
  constructor(private readonly prisma: PrismaService) {}

  async page(subscriptionId: number, skip: number, take: number): Promise<{ total: number; rows: DeadLetterRow[] }> {
    const [[{ total }], rows] = await Promise.all([
      this.prisma.$queryRaw<{ total: number }[]>`
        SELECT count(*)::int AS total FROM event_dead_letters WHERE subscription_id = ${subscriptionId}`,
      this.prisma.$queryRaw<DeadLetterRow[]>`
        SELECT id, event_id AS "eventId", attempts, last_error AS "lastError", failed_at AS "failedAt",
               requeued_at AS "requeuedAt"
        FROM event_dead_letters WHERE subscription_id = ${subscriptionId}
        ORDER BY id LIMIT ${take} OFFSET ${skip}`,
    ]);
    return { total, rows };
  }

  /**
   * Queues the dead letters (all of the subscription's when `ids` is null) for delivery; how
   * many. The event is recorded when any was.
   */
  requeue(subscriptionId: number, ids: bigint[] | null, audit: (n: number) => AuditEvent): Promise<number> {
    return this.prisma.transaction(async ({ db }) => {
      const n =
        ids === null
          ? await db.$executeRaw`
              UPDATE event_dead_letters SET requeued_at = now()
              WHERE subscription_id = ${subscriptionId} AND requeued_at IS NULL`
          : await db.$executeRaw`
              UPDATE event_dead_letters SET requeued_at = now()
              WHERE subscription_id = ${subscriptionId} AND id = ANY(${ids}::int8[]) AND requeued_at IS NULL`;
      if (n > 0) await recordAudit(auditViaPrisma(db), audit(n));
      return n;
    });
  }

  /** Deletes the dead letters (all of the subscription's when `ids` is null); how many. */
  discard(subscriptionId: number, ids: bigint[] | null, audit: (n: number) => AuditEvent): Promise<number> {
    return this.prisma.transaction(async ({ db }) => {
      const n =
        ids === null
          ? await db.$executeRaw`DELETE FROM event_dead_letters WHERE subscription_id = ${subscriptionId}`
          : await db.$executeRaw`
              DELETE FROM event_dead_letters WHERE subscription_id = ${subscriptionId} AND id = ANY(${ids}::int8[])`;
      if (n > 0) await recordAudit(auditViaPrisma(db), audit(n));
      return n;
    });
  }

  /** Dead letters per subscription. */
  async counts(ids: number[]): Promise<Map<number, number>> {
    const rows = await this.prisma.$queryRaw<{ id: number; n: number }[]>`
      SELECT subscription_id AS id, count(*)::int AS n FROM event_dead_letters
      WHERE subscription_id = ANY(${ids}::int4[]) GROUP BY subscription_id`;
    return new Map(rows.map((r) => [r.id, r.n]));
  }
}
