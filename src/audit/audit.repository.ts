import type pg from 'pg';
import type { Prisma } from '../generated/prisma/client.js';
import { MASTER_SUFFIX, OidClass } from '../catalog/standard-classes.js';
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

/** An event given by names (recordNamedEvents). */
export interface NamedEvent {
  at: string;
  user: string;
  action: string;
  object: { class: string; number: string } | { container: string } | { user: string };
  detail: Record<string, unknown>;
}

/**
 * The object of a named event: a business object's master by class and number (with its
 * container), a container, a user. $1 class or name, $2 number.
 */
const NAMED_OBJECT = {
  master: `SELECT m.class || '${MASTER_SUFFIX}' AS cls, m.id, m.number, m.container_id FROM masters m WHERE m.class = $1 AND m.number = $2`,
  container: `SELECT c.class AS cls, c.id, c.name AS number, c.id AS container_id FROM containers c WHERE c.name = $1 AND $2::text IS NULL`,
  user: `SELECT '${OidClass.user}' AS cls, u.id, u.name AS number, NULL::int AS container_id FROM users u WHERE u.name = $1 AND $2::text IS NULL`,
} as const;

/**
 * Records events whose user and object are given by name, at the times they give: the demo
 * data's audit trail. An event already there (same time, user, action and object) is not
 * recorded again; one whose user or object is missing is left out.
 */
export async function recordNamedEvents(sql: AuditSql, events: readonly NamedEvent[]): Promise<void> {
  for (const e of events) {
    const o = e.object;
    const [object, key] =
      'class' in o
        ? [NAMED_OBJECT.master, [o.class, o.number]]
        : 'container' in o
          ? [NAMED_OBJECT.container, [o.container, null]]
          : [NAMED_OBJECT.user, [o.user, null]];
    await sql(
      `WITH o AS (${object})
       INSERT INTO audit_events (at, user_id, user_name, action, object_class, object_id, object_number, container_id, detail)
       SELECT $3::timestamptz, u.id, u.name, $5, o.cls, o.id, o.number, o.container_id, $6::jsonb
       FROM o, users u
       WHERE u.name = $4 AND NOT EXISTS (
         SELECT 1 FROM audit_events a
         WHERE a.at = $3::timestamptz AND a.user_name = $4 AND a.action = $5
           AND a.object_class = o.cls AND a.object_id = o.id)`,
      [...key, e.at, e.user, e.action, JSON.stringify(e.detail)],
    );
  }
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
