import { Injectable } from '@nestjs/common';
import type { AuditEvent } from '../../audit/audit-events.js';
import { auditViaPrisma, recordAudit } from '../../audit/audit.repository.js';
import { PrismaService } from '../../prisma/prisma.service.js';

/** A subscription's row (event_subscriptions). */
export interface SubscriptionRow {
  id: number;
  ownerId: number;
  owner: string;
  ownerAdmin: boolean;
  name: string;
  actions: string[];
  containerId: number | null;
  container: string | null;
  type: string | null;
  state: string | null;
  targetKind: 'webhook' | 'nats' | 'amqp';
  target: string;
  secret: string | null;
  active: boolean;
  pausedReason: string | null;
  cursor: bigint;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  delivered: bigint;
  failures: bigint;
  lastDeliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a create or an update writes. */
export interface SubscriptionFields {
  name: string;
  actions: string[];
  containerId: number | null;
  type: string | null;
  state: string | null;
  targetKind: 'webhook' | 'nats' | 'amqp';
  target: string;
  secret: string | null;
  active: boolean;
}

/** Which subscriptions a caller sees: an administrator all, others their own and their managed containers'. */
export interface SubscriptionViewer {
  userId: number;
  admin: boolean;
  managed: readonly number[];
}

const COLUMNS = `s.id, s.owner_id AS "ownerId", u.name AS owner, u.admin AS "ownerAdmin", s.name, s.actions, s.container_id AS "containerId",
  c.name AS container, s.type, s.state, s.target_kind AS "targetKind", s.target, s.secret, s.active,
  s.paused_reason AS "pausedReason", s.cursor, s.attempts, s.next_attempt_at AS "nextAttemptAt",
  s.last_error AS "lastError", s.last_error_at AS "lastErrorAt", s.delivered, s.failures,
  s.last_delivered_at AS "lastDeliveredAt", s.created_at AS "createdAt", s.updated_at AS "updatedAt"`;
const FROM = `event_subscriptions s JOIN users u ON u.id = s.owner_id LEFT JOIN containers c ON c.id = s.container_id`;

/** The table event_subscriptions as the HTTP API changes it (delivery state: delivery.repository.ts). */
@Injectable()
export class SubscriptionsRepository {
  constructor(private readonly prisma: PrismaService) {}

  list(viewer: SubscriptionViewer): Promise<SubscriptionRow[]> {
    return this.prisma.$queryRawUnsafe<SubscriptionRow[]>(
      `SELECT ${COLUMNS} FROM ${FROM}
       WHERE $1 OR s.owner_id = $2 OR s.container_id = ANY($3::int4[]) ORDER BY s.id`,
      viewer.admin,
      viewer.userId,
      [...viewer.managed],
    );
  }

  async get(id: number): Promise<SubscriptionRow | null> {
    const rows = await this.prisma.$queryRawUnsafe<SubscriptionRow[]>(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE s.id = $1`,
      id,
    );
    return rows[0] ?? null;
  }

  /**
   * Creates the subscription unless its owner has `limit` already (null then), its cursor at the
   * log's last event: it delivers what is committed after it. The owner's row is locked first,
   * so parallel creations of one owner count one after the other.
   */
  create(
    ownerId: number,
    f: SubscriptionFields,
    limit: number,
    audit: (row: SubscriptionRow) => AuditEvent,
  ): Promise<SubscriptionRow | null> {
    return this.prisma.transaction(async ({ db }) => {
      await db.$queryRaw`SELECT id FROM users WHERE id = ${ownerId} FOR NO KEY UPDATE`;
      const [{ n }] = await db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM event_subscriptions WHERE owner_id = ${ownerId}`;
      if (n >= limit) return null;
      const [{ id }] = await db.$queryRaw<{ id: number }[]>`
        INSERT INTO event_subscriptions
          (owner_id, name, actions, container_id, type, state, target_kind, target, secret, active, cursor)
        VALUES (${ownerId}, ${f.name}, ${f.actions}::text[], ${f.containerId}, ${f.type}, ${f.state},
                ${f.targetKind}, ${f.target}, ${f.secret}, ${f.active},
                (SELECT COALESCE(max(position), 0) FROM event_log))
        RETURNING id`;
      const rows = await db.$queryRawUnsafe<SubscriptionRow[]>(`SELECT ${COLUMNS} FROM ${FROM} WHERE s.id = $1`, id);
      await recordAudit(auditViaPrisma(db), audit(rows[0]));
      return rows[0];
    });
  }

  /**
   * Writes the fields; `resume` clears the pause and the failed attempts (the next event is tried
   * at once). Null when the subscription is gone.
   */
  update(
    id: number,
    f: SubscriptionFields,
    resume: boolean,
    audit: (before: SubscriptionRow, after: SubscriptionRow) => AuditEvent,
  ): Promise<SubscriptionRow | null> {
    return this.prisma.transaction(async ({ db }) => {
      const before = await db.$queryRawUnsafe<SubscriptionRow[]>(
        `SELECT ${COLUMNS} FROM ${FROM} WHERE s.id = $1 FOR NO KEY UPDATE OF s`,
        id,
      );
      if (!before.length) return null;
      await db.$executeRaw`
        UPDATE event_subscriptions SET name = ${f.name}, actions = ${f.actions}::text[], container_id = ${f.containerId},
          type = ${f.type}, state = ${f.state}, target_kind = ${f.targetKind}, target = ${f.target},
          secret = ${f.secret}, active = ${f.active}, updated_at = now(),
          paused_reason = CASE WHEN ${resume} OR NOT ${f.active} THEN NULL ELSE paused_reason END,
          attempts = CASE WHEN ${resume} THEN 0 ELSE attempts END,
          next_attempt_at = CASE WHEN ${resume} THEN NULL ELSE next_attempt_at END
        WHERE id = ${id}`;
      const after = await db.$queryRawUnsafe<SubscriptionRow[]>(`SELECT ${COLUMNS} FROM ${FROM} WHERE s.id = $1`, id);
      await recordAudit(auditViaPrisma(db), audit(before[0], after[0]));
      return after[0];
    });
  }

  delete(id: number, audit: (row: SubscriptionRow) => AuditEvent): Promise<SubscriptionRow | null> {
    return this.prisma.transaction(async ({ db }) => {
      const rows = await db.$queryRawUnsafe<SubscriptionRow[]>(
        `SELECT ${COLUMNS} FROM ${FROM} WHERE s.id = $1 FOR UPDATE OF s`,
        id,
      );
      if (!rows.length) return null;
      await db.$executeRaw`DELETE FROM event_subscriptions WHERE id = ${id}`;
      await recordAudit(auditViaPrisma(db), audit(rows[0]));
      return rows[0];
    });
  }

  /** A container's id by its name. */
  async containerId(name: string): Promise<number | null> {
    const rows = await this.prisma.$queryRaw<{ id: number }[]>`SELECT id FROM containers WHERE name = ${name}`;
    return rows[0]?.id ?? null;
  }

  /** The containers the user manages (their own or through a group). */
  async managedContainers(userId: number): Promise<number[]> {
    const rows = await this.prisma.$queryRaw<{ id: number }[]>`
      SELECT container_id AS id FROM access_roles WHERE user_id = ${userId} AND role = 'manager'`;
    return rows.map((r) => r.id);
  }
}
