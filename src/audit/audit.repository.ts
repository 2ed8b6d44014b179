import type pg from 'pg';
import type { Prisma } from '../generated/prisma/client.js';
import type { AuditEvent, AuditSql } from './audit-events.js';

// The writes of audit_events: plain functions rather than methods, as they run in the caller's
// transaction (a Prisma transaction or a pg client that has begun one, see audit-events.ts) in
// every module that writes, not on a connection of their own. The reads are in history/.

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
