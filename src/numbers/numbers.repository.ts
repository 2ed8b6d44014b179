import { Injectable } from '@nestjs/common';
import { type AuditEvent } from '../audit/audit-events.js';
import { auditViaPg, recordAudits } from '../audit/audit.repository.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { formatNumber, type NumberFormat } from './number-format.js';
import type { ContainerSource } from './numbers.params.js';

export interface ContainerRecord {
  id: number;
  cls: string;
  name: string;
}

/** A container and the caller's membership role there (null: not a member). */
export interface ContainerWithRole extends ContainerRecord {
  role: 'reader' | 'author' | 'manager' | null;
}

/** The table whose rows carry the numbers of a class's objects: masters (versioned classes) or objects (plain ones). */
export type NumberedTable = 'masters' | 'objects';

/** The class a numbering rule numbers, and where the numbers its objects already carry are kept. */
export interface NumberedClass {
  cls: string;
  table: NumberedTable;
}

export interface RuleRecord extends NumberFormat {
  cls: string;
  next: bigint;
}

/** One request for numbers: how many, for whom, and the class it named (for its audit event). */
export interface ReservationRequest {
  count: number;
  userId: number;
  className: string;
}

/** The outcome of one reservation attempt on a rule. */
export interface Reservation extends NumberFormat {
  /** First counter of the run: the first `count` consecutive free counters at or after `next`. */
  start: bigint;
  /** 10^width: the run must end below it. */
  bound: bigint;
  /** False when the run did not fit below bound; then the rule was left unchanged. */
  reserved: boolean;
}

@Injectable()
export class NumbersRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The container a source names, with the caller's role there. See containerSql. */
  async findContainer(source: ContainerSource, userId: number): Promise<ContainerWithRole | null> {
    const rows = await this.prisma.$queryRaw<ContainerWithRole[]>(containerSql(source, userId));
    return rows[0] ?? null;
  }

  listRules(containerId: number): Promise<RuleRecord[]> {
    return this.prisma.numberingRule.findMany({
      where: { containerId },
      select: { cls: true, prefix: true, suffix: true, width: true, next: true },
      orderBy: { cls: 'asc' },
    });
  }

  /**
   * Reserves the numbers of all `requests` as one run (their counts added up) and, when they
   * fit, records one `numbers.generate` event per request with its part of the run, in the
   * transaction of the reservation. Null when the container has no rule for the class. See
   * reservationSql. On the pool under Prisma: four short statements, the rule row held from the
   * reservation to the commit.
   */
  async reserve(
    container: ContainerRecord,
    rule: NumberedClass,
    requests: readonly ReservationRequest[],
  ): Promise<Reservation | null> {
    const total = requests.reduce((sum, r) => sum + r.count, 0);
    const q = reservationSql(container.id, rule, total);
    return this.prisma.transaction(async (tx) => {
      const [row] = await tx.query<ReservationRow>(q.text, q.values);
      if (!row) return null;
      const r: Reservation = { ...row, start: BigInt(row.start), bound: BigInt(row.bound) };
      if (r.reserved) await recordAudits(auditViaPg(tx.client), generatedEvents(container, r, requests));
      return r;
    });
  }

  /**
   * Reserves `count` numbers of the rule inside the caller's transaction (creating an object with
   * a generated number): the rule row stays locked until that transaction ends, so concurrent
   * reservations wait for it, and a rollback gives the numbers back along with everything else.
   * Null when the container has no rule for the class. See reservationSql.
   */
  async reserveInTransaction(
    tx: Prisma.TransactionClient,
    containerId: number,
    rule: NumberedClass,
    count: number,
  ): Promise<Reservation | null> {
    const rows = await tx.$queryRaw<Reservation[]>(reservationSql(containerId, rule, count));
    return rows[0] ?? null;
  }
}

/** A reservation as pg reads it: int8 as text. */
type ReservationRow = Omit<Reservation, 'start' | 'bound'> & { start: string; bound: string };

/** One event per request, each with the numbers it was handed (the run split in request order). */
function generatedEvents(
  container: ContainerRecord,
  r: Reservation,
  requests: readonly ReservationRequest[],
): AuditEvent[] {
  let start = r.start;
  return requests.map((req) => {
    const first = start;
    start += BigInt(req.count);
    return {
      userId: req.userId,
      action: 'numbers.generate',
      objectClass: container.cls,
      objectId: container.id,
      objectNumber: container.name,
      containerId: container.id,
      detail: {
        class_name: req.className,
        count: req.count,
        first: formatNumber(r, first),
        last: formatNumber(r, start - 1n),
      },
    };
  });
}

/**
 * The container a source names and the caller's membership role there, in one query:
 * generating numbers costs this statement and the reservation's short transaction (the
 * reservation and its audit events), which matters at thousands of requests per second. Shared
 * with the benchmark baseline.
 */
export function containerSql(source: ContainerSource, userId: number): Prisma.Sql {
  return Prisma.sql`
    SELECT c.id, c.class AS cls, c.name, m.role::text AS role
    FROM containers c
    LEFT JOIN access_roles m ON m.container_id = c.id AND m.user_id = ${userId}
    WHERE ${sourceCondition(source)}`;
}

function sourceCondition(source: ContainerSource): Prisma.Sql {
  switch (source.kind) {
    case 'container-name':
      return Prisma.sql`c.name = ${source.text}`;
    case 'container-ref':
      // The OID's class must be the container's own class: OR:wt.inf.library.WTLibrary:1 does not
      // name a product that happens to have id 1.
      return Prisma.sql`c.id = ${source.id} AND c.class = ${source.cls}`;
    case 'workspace-name':
      return Prisma.sql`c.id = (SELECT container_id FROM workspaces WHERE name = ${source.text})`;
    case 'workspace-ref':
      return Prisma.sql`c.id = (SELECT container_id FROM workspaces WHERE id = ${source.id})`;
  }
}

/** Checked names: the only table names the reservation writes into its SQL. */
const TABLES: Record<NumberedTable, string> = { masters: 'masters', objects: 'objects' };

/**
 * Reserves `count` consecutive numbers of the container's rule for `rule.cls` in one
 * statement, so concurrent requests (in this process or any other) never share a number:
 * - the rule row is locked (FOR UPDATE); a concurrent reservation waits and then sees the
 *   counter this one left behind;
 * - numbers that objects of the class already carry (imported ahead of the counter; kept in
 *   `rule.table`: masters of versioned classes, rows of objects for plain ones) are skipped:
 *   walking the taken counters at or after `next` in order, the run starts at the
 *   first gap of at least `count`, or after the last taken one. The walk stops at that gap,
 *   and runs on the (class, number) index: well-formed numbers of one rule sort like their
 *   counters, as they share prefix, width and suffix;
 * - the counter moves past the run only if the run fits the width; otherwise nothing changes.
 * Yields no row when the container has no rule for the class. Shared with the benchmark
 * baseline (bench/baselines/numbers-baseline.ts), which runs it through pg directly.
 */
export function reservationSql(containerId: number, rule: NumberedClass, count: number): Prisma.Sql {
  return Prisma.sql`
    WITH ${reservationCtes(containerId, rule, count)}
    SELECT ${RESERVATION_COLUMNS}
    FROM placed p`;
}

/** What a reservation answers (see Reservation), from `placed p` and `moved`. */
export const RESERVATION_COLUMNS = Prisma.sql`p.start, p.bound, p.prefix, p.suffix, p.width,
  EXISTS (SELECT 1 FROM moved) AS reserved`;

/**
 * The reservation of reservationSql as the common table expressions `locked`, `placed` (the
 * rule's format and `wanted`, `bound` and the run's `start`: the run fits when
 * `start + wanted <= bound`) and `moved`, for a statement that also uses the numbers it
 * reserves (creating an object with a generated number, ObjectChangeTx.createNumberedObject).
 */
export function reservationCtes(containerId: number, rule: NumberedClass, count: number): Prisma.Sql {
  // One table per class (not a union of both), so the walk stays an ordered index scan that stops at the gap.
  return Prisma.sql`
    locked AS (
      SELECT id, class, prefix, suffix, width, next, (10::numeric ^ width)::bigint AS bound,
             ${count}::bigint AS wanted
      FROM numbering_rules
      WHERE container_id = ${containerId} AND class = ${rule.cls}
      FOR UPDATE
    ),
    placed AS (
      SELECT l.id, l.prefix, l.suffix, l.width, l.bound, l.wanted, COALESCE((
        SELECT CASE WHEN g.n - g.prev > l.wanted THEN g.prev + 1 ELSE g.n + 1 END
        FROM (
          SELECT t.n, lag(t.n, 1, l.next - 1) OVER w AS prev, lead(t.n) OVER w AS after
          FROM (
            SELECT m.number, substr(m.number, length(l.prefix) + 1, l.width)::bigint AS n
            FROM ${Prisma.raw(TABLES[rule.table])} m
            WHERE m.class = l.class
              AND m.number >= l.prefix || lpad(l.next::text, l.width, '0') || l.suffix
              AND m.number <= l.prefix || repeat('9', l.width) || l.suffix
              AND length(m.number) = length(l.prefix) + l.width + length(l.suffix)
              AND left(m.number, length(l.prefix)) = l.prefix
              AND right(m.number, length(l.suffix)) = l.suffix
              AND substr(m.number, length(l.prefix) + 1, l.width) ~ '^[0-9]+$'
          ) t
          WINDOW w AS (ORDER BY t.number)
        ) g
        WHERE g.n - g.prev > l.wanted OR g.after IS NULL
        LIMIT 1
      ), l.next) AS start
      FROM locked l
    ),
    moved AS (
      UPDATE numbering_rules r SET next = p.start + p.wanted
      FROM placed p
      WHERE r.id = p.id AND p.start + p.wanted <= p.bound
      RETURNING r.id
    )`;
}
