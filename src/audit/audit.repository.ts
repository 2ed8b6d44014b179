import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { AuditEvent, AuditSql } from './audit-events.js';
import { MEMBER_ACTIONS } from './event-references.js';

/** A business object as its history names it: its master. */
export interface MasterRow {
  id: number;
  cls: string;
  number: string;
  name: string;
  container_id: number;
  container: string;
}

/** How a request names masters: an iteration, a master, or a number (of one class, or of any). */
export type MasterKey =
  | { kind: 'iteration'; cls: string; id: number }
  | { kind: 'master'; cls: string; id: number }
  | { kind: 'number'; cls: string | null; number: string };

/** Which events: of one object (by class and id, of an iteration's master, or by number), of a user, in a time window, of actions. */
export interface EventFilter {
  object?:
    | { kind: 'id'; cls: string; id: number }
    | { kind: 'iteration'; cls: string; masterCls: string; id: number }
    | { kind: 'number'; number: string };
  userName?: string;
  from?: Date;
  to?: Date;
  /** An action, or a prefix (`admin.`) when `prefix`. */
  action?: { text: string; prefix: boolean };
}

export interface EventRow {
  id: bigint;
  at: Date;
  user_name: string;
  action: string;
  object_class: string | null;
  object_id: bigint | null;
  object_number: string | null;
  container: string | null;
  detail: Record<string, unknown> | null;
  /** Whether detail.member names an object the reader may not read (see event-references.ts); false for all-readers. */
  member_hidden: boolean;
}

/** Who reads a history, for the references its events make: their readable containers, and the object's class. */
export interface HistoryReader {
  readable: readonly number[];
  /** The class of the object (an iteration class): members are masters of it. */
  cls: string;
}

const MASTER_COLUMNS = Prisma.raw('m.id, m.class AS cls, m.number, m.name, m.container_id, c.name AS container');

/**
 * Reads of audit_events: the history of one object and the administrators' listing. The writes
 * are the functions below the class.
 */
@Injectable()
export class AuditRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The masters a key names: one, or several when several classes carry a number. */
  findMasters(key: MasterKey): Promise<MasterRow[]> {
    const where =
      key.kind === 'iteration'
        ? Prisma.sql`m.id = (SELECT i.master_id FROM iterations i WHERE i.id = ${key.id}) AND m.class = ${key.cls}`
        : key.kind === 'master'
          ? Prisma.sql`m.id = ${key.id} AND m.class = ${key.cls}`
          : key.cls === null
            ? Prisma.sql`m.number = ${key.number}`
            : Prisma.sql`m.number = ${key.number} AND m.class = ${key.cls}`;
    return this.prisma.$queryRaw<MasterRow[]>`
      SELECT ${MASTER_COLUMNS} FROM masters m JOIN containers c ON c.id = m.container_id
      WHERE ${where} ORDER BY m.class LIMIT 10`;
  }

  /**
   * One page of the events the filter selects, newest first, and how many it selects in all.
   * With `reader`, each event naming a member says whether it is hidden from them: a member is
   * looked up by class and number (the unique key) in the same statement, so a page costs no
   * statement per event; a member that no longer exists counts as hidden (where it was is not
   * known any more).
   */
  async page(
    filter: EventFilter,
    skip: number,
    take: number,
    reader?: HistoryReader,
  ): Promise<{ total: number; rows: EventRow[] }> {
    const where = conditions(filter);
    const hidden = reader
      ? Prisma.sql`(e.action = ANY(${MEMBER_ACTIONS}::text[]) AND e.detail->>'member' IS NOT NULL AND NOT EXISTS (
          SELECT 1 FROM masters mm
          WHERE mm.class = ${reader.cls} AND mm.number = e.detail->>'member'
            AND mm.container_id = ANY(${reader.readable}::int4[])))`
      : Prisma.sql`false`;
    const [[{ total }], rows] = await this.prisma.transaction(() =>
      Promise.all([
        this.prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM audit_events e WHERE ${where}`,
        this.prisma.$queryRaw<EventRow[]>`
        SELECT e.id, e.at, e.user_name, e.action, e.object_class, e.object_id, e.object_number,
               c.name AS container, e.detail, ${hidden} AS member_hidden
        FROM audit_events e LEFT JOIN containers c ON c.id = e.container_id
        WHERE ${where}
        ORDER BY e.id DESC
        LIMIT ${take} OFFSET ${skip}`,
      ]),
    );
    return { total, rows };
  }
}

function conditions(f: EventFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`TRUE`];
  const o = f.object;
  if (o?.kind === 'id') parts.push(Prisma.sql`e.object_class = ${o.cls} AND e.object_id = ${o.id}`);
  if (o?.kind === 'iteration') {
    parts.push(Prisma.sql`e.object_class = ${o.masterCls} AND e.object_id = (
      SELECT i.master_id FROM iterations i JOIN masters m ON m.id = i.master_id WHERE i.id = ${o.id} AND m.class = ${o.cls})`);
  }
  if (o?.kind === 'number') parts.push(Prisma.sql`e.object_number = ${o.number}`);
  if (f.userName !== undefined) parts.push(Prisma.sql`e.user_name = ${f.userName}`);
  if (f.from) parts.push(Prisma.sql`e.at >= ${f.from}`);
  if (f.to) parts.push(Prisma.sql`e.at < ${f.to}`);
  if (f.action?.prefix) parts.push(Prisma.sql`starts_with(e.action, ${f.action.text})`);
  else if (f.action) parts.push(Prisma.sql`e.action = ${f.action.text}`);
  return Prisma.join(parts, ' AND ');
}

// The writes of audit_events: plain functions rather than methods, as they run in the caller's
// transaction (a Prisma transaction or a pg client that has begun one, see audit-events.ts) in
// every module that writes, not on a connection of the audit module's own.

const INSERT = `INSERT INTO audit_events
  (user_id, user_name, action, object_class, object_id, object_number, container_id, detail)
  SELECT u.id, u.name, $2, $3, $4, $5, $6, $7::jsonb FROM users u WHERE u.id = $1`;

/** Records one event; the statement owns the audit_events table for writing. */
export async function recordAudit(sql: AuditSql, event: AuditEvent): Promise<void> {
  await sql(INSERT, [
    event.userId,
    event.action,
    event.objectClass ?? null,
    event.objectId ?? null,
    event.objectNumber ?? null,
    event.containerId ?? null,
    event.detail == null ? null : JSON.stringify(event.detail),
  ]);
}

const INSERT_AS = `INSERT INTO audit_events (user_id, user_name, action, detail)
  SELECT u.id, n.name, $2, $3::jsonb FROM (SELECT $1::text AS name) n LEFT JOIN users u ON u.name = n.name`;

/**
 * Records an event of a write made in a user's name that may not (yet) be a user here: the
 * dataset import, run as `admin` on a database that may have none. The name is kept either way.
 */
export async function recordAuditAs(
  sql: AuditSql,
  userName: string,
  action: string,
  detail: Record<string, unknown>,
): Promise<void> {
  await sql(INSERT_AS, [userName, action, JSON.stringify(detail)]);
}

const INSERT_MANY = `INSERT INTO audit_events
  (user_id, user_name, action, object_class, object_id, object_number, container_id, detail)
  SELECT u.id, u.name, e.action, e.object_class, e.object_id, e.object_number, e.container_id, e.detail
  FROM unnest($1::int4[], $2::text[], $3::text[], $4::int8[], $5::text[], $6::int4[], $7::jsonb[])
       WITH ORDINALITY AS e(user_id, action, object_class, object_id, object_number, container_id, detail, n)
  JOIN users u ON u.id = e.user_id
  ORDER BY e.n`;

/**
 * Records several events in one statement, in their order: a write serving several requests
 * at once (number reservations batched into one transaction) records one event per request.
 */
export async function recordAudits(sql: AuditSql, events: readonly AuditEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (events.length === 1) return recordAudit(sql, events[0]);
  await sql(INSERT_MANY, [
    events.map((e) => e.userId),
    events.map((e) => e.action),
    events.map((e) => e.objectClass ?? null),
    events.map((e) => (e.objectId == null ? null : String(e.objectId))),
    events.map((e) => e.objectNumber ?? null),
    events.map((e) => e.containerId ?? null),
    events.map((e) => (e.detail == null ? null : JSON.stringify(e.detail))),
  ]);
}

/** Through the database handle (inside a transaction, in it). */
export const auditViaPrisma =
  (tx: Prisma.TransactionClient): AuditSql =>
  (text, values) =>
    tx.$executeRawUnsafe(text, ...values);

/** On a pg client that has begun the transaction. */
export const auditViaPg =
  (client: pg.ClientBase): AuditSql =>
  (text, values) =>
    client.query(text, values);
