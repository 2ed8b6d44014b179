import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../prisma/prisma.service.js';

/** A subscription as its delivery loop needs it, with its owner's standing. */
export interface DeliveryLease {
  id: number;
  ownerId: number;
  ownerAdmin: boolean;
  ownerDisabled: boolean;
  actions: string[];
  containerId: number | null;
  type: string | null;
  state: string | null;
  targetKind: 'webhook' | 'nats' | 'amqp';
  target: string;
  secret: string | null;
  cursor: bigint;
  attempts: number;
}

/** A dead letter queued again for delivery. */
export interface RequeuedLetter {
  id: bigint;
  eventId: bigint;
  attempts: number;
}

/**
 * The delivery state of event_subscriptions and event_dead_letters. Every change after a claim
 * names the instance holding the lease (`owner`): an instance that lost its lease (it stalled
 * past EVENTS_LEASE_MS and another took over) changes nothing, and stops (false / 0 rows).
 */
@Injectable()
export class DeliveryRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Leases up to `limit` active subscriptions due for delivery (events after their cursor, or
   * requeued dead letters; no backoff pending) that no other instance holds, skipping `busy`; the
   * ones furthest behind first (when fewer loops may run than are due, each gets its turn).
   */
  claim(owner: string, leaseMs: number, limit: number, busy: readonly number[]): Promise<DeliveryLease[]> {
    return this.prisma.$queryRaw<DeliveryLease[]>`
      WITH head AS (SELECT COALESCE(max(position), 0) AS last FROM event_log),
      due AS (
        SELECT s.id FROM event_subscriptions s, head
        WHERE s.active AND NOT (s.id = ANY(${[...busy]}::int4[]))
          AND (s.lease_until IS NULL OR s.lease_until < clock_timestamp() OR s.lease_owner = ${owner})
          AND (s.next_attempt_at IS NULL OR s.next_attempt_at <= clock_timestamp())
          AND (s.cursor < head.last OR EXISTS (
                SELECT 1 FROM event_dead_letters d WHERE d.subscription_id = s.id AND d.requeued_at IS NOT NULL))
        ORDER BY s.cursor, s.id LIMIT ${limit}
        FOR UPDATE OF s SKIP LOCKED
      )
      UPDATE event_subscriptions s
      SET lease_owner = ${owner}, lease_until = clock_timestamp() + make_interval(secs => ${leaseMs / 1000})
      FROM due, users u
      WHERE s.id = due.id AND u.id = s.owner_id
      RETURNING s.id, s.owner_id AS "ownerId", u.admin AS "ownerAdmin", u.disabled AS "ownerDisabled",
                s.actions, s.container_id AS "containerId", s.type, s.state, s.target_kind AS "targetKind",
                s.target, s.secret, s.cursor, s.attempts`;
  }

  /** Whether any subscription is active. */
  async anyActive(): Promise<boolean> {
    const [row] = await this.prisma.$queryRaw<{ any: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM event_subscriptions WHERE active) AS any`;
    return row.any;
  }

  /**
   * Moves the cursor to `position` (events up to it handled), counting `delivered` events, and
   * renews the lease; false when the lease is not this instance's any more.
   */
  async advance(id: number, owner: string, position: bigint, delivered: number, leaseMs: number): Promise<boolean> {
    const n = await this.prisma.$executeRaw`
      UPDATE event_subscriptions
      SET cursor = ${position}, attempts = 0, next_attempt_at = NULL, delivered = delivered + ${delivered},
          last_delivered_at = CASE WHEN ${delivered} > 0 THEN clock_timestamp() ELSE last_delivered_at END,
          lease_until = clock_timestamp() + make_interval(secs => ${leaseMs / 1000})
      WHERE id = ${id} AND lease_owner = ${owner} AND cursor < ${position}`;
    return n === 1;
  }

  /** Extends the lease; false when it is not this instance's any more. */
  async renew(id: number, owner: string, leaseMs: number): Promise<boolean> {
    const n = await this.prisma.$executeRaw`
      UPDATE event_subscriptions SET lease_until = clock_timestamp() + make_interval(secs => ${leaseMs / 1000})
      WHERE id = ${id} AND lease_owner = ${owner}`;
    return n === 1;
  }

  /** A failed attempt at the event after the cursor: tried again at `retryAt` (by any instance). */
  async failed(id: number, owner: string, attempts: number, retryAt: Date, error: string): Promise<boolean> {
    const n = await this.prisma.$executeRaw`
      UPDATE event_subscriptions
      SET attempts = ${attempts}, next_attempt_at = ${retryAt}, last_error = ${error}, last_error_at = clock_timestamp(),
          failures = failures + 1, lease_owner = NULL, lease_until = NULL
      WHERE id = ${id} AND lease_owner = ${owner}`;
    return n === 1;
  }

  /**
   * Gives up on the event at `position`: it goes to the dead letters and the cursor past it, in
   * one transaction; false when the lease is lost.
   */
  deadLetter(
    id: number,
    owner: string,
    eventId: bigint,
    position: bigint,
    attempts: number,
    error: string,
  ): Promise<boolean> {
    return this.prisma.transaction(async ({ db }) => {
      const n = await db.$executeRaw`
        UPDATE event_subscriptions
        SET cursor = ${position}, attempts = 0, next_attempt_at = NULL, last_error = ${error},
            last_error_at = clock_timestamp(), failures = failures + 1
        WHERE id = ${id} AND lease_owner = ${owner} AND cursor < ${position}`;
      if (n !== 1) return false;
      await db.$executeRaw`
        INSERT INTO event_dead_letters (subscription_id, event_id, position, attempts, last_error)
        VALUES (${id}, ${eventId}, ${position}, ${attempts}, ${error})`;
      return true;
    });
  }

  /** Pauses the subscription (the receiver said 410 Gone, or the owner is disabled). */
  async pause(id: number, owner: string, reason: string): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE event_subscriptions
      SET active = false, paused_reason = ${reason}, last_error = ${reason}, last_error_at = clock_timestamp(),
          lease_owner = NULL, lease_until = NULL, updated_at = now()
      WHERE id = ${id} AND lease_owner = ${owner}`;
  }

  /** Lets another instance (or this one, later) take the subscription. */
  async release(id: number, owner: string): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE event_subscriptions SET lease_owner = NULL, lease_until = NULL WHERE id = ${id} AND lease_owner = ${owner}`;
  }

  /** Releases every lease of this instance (at shutdown). */
  async releaseAll(owner: string): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE event_subscriptions SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ${owner}`;
  }

  /** Dead letters queued again, oldest first. */
  requeued(id: number, limit: number): Promise<RequeuedLetter[]> {
    return this.prisma.$queryRaw<RequeuedLetter[]>`
      SELECT id, event_id AS "eventId", attempts FROM event_dead_letters
      WHERE subscription_id = ${id} AND requeued_at IS NOT NULL ORDER BY id LIMIT ${limit}`;
  }

  /** A requeued dead letter was delivered: it leaves the list. */
  async letterDelivered(subscriptionId: number, letterId: bigint): Promise<void> {
    await this.prisma.transaction(async ({ db }) => {
      await db.$executeRaw`DELETE FROM event_dead_letters WHERE id = ${letterId}`;
      await db.$executeRaw`
        UPDATE event_subscriptions SET delivered = delivered + 1, last_delivered_at = clock_timestamp()
        WHERE id = ${subscriptionId}`;
    });
  }

  /** A requeued dead letter failed again: it stays, with its new error, until queued again. */
  async letterFailed(letterId: bigint, error: string): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE event_dead_letters
      SET requeued_at = NULL, attempts = attempts + 1, last_error = ${error}, failed_at = clock_timestamp()
      WHERE id = ${letterId}`;
  }
}
