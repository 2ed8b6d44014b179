import { Injectable } from '@nestjs/common';
import { MASTER_SUFFIX } from '../catalog/standard-classes.js';
import { MEMBER_ACTIONS } from '../history/event-references.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { EventRecord } from './event-record.js';

/** Whose rights an event is read with: an administrator reads all, others their containers'. */
export interface EventReader {
  userId: number;
  admin: boolean;
}

interface Row {
  position: bigint;
  id: bigint;
  at: Date;
  user_name: string;
  action: string;
  object_class: string | null;
  object_id: bigint | null;
  object_number: string | null;
  container_id: number | null;
  container: string | null;
  detail: Record<string, unknown> | null;
  object_name: string | null;
  object_cls: string | null;
  soft_type: string | null;
  state: string | null;
  visible: boolean;
  member_hidden: boolean;
}

/**
 * Reads of event_log (the audit trail in commit order, see migration 20261128100000_change_events)
 * with each event's object and the reader's rights, and its pruning. Written by the database only.
 */
@Injectable()
export class EventsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * The events after `after`, at most `scan` of them in log order, each saying whether `reader`
   * may read it (its detail is null when not). A whole window is read so a cursor can move past
   * events the reader may not see.
   */
  async window(after: bigint, scan: number, reader: EventReader): Promise<EventRecord[]> {
    const rows = await this.prisma.$queryRaw<Row[]>`
      WITH w AS (
        SELECT l.position, l.event_id FROM event_log l WHERE l.position > ${after} ORDER BY l.position LIMIT ${scan}
      ), r AS (
        SELECT ${reader.admin}::boolean AS admin,
               ARRAY(SELECT container_id FROM access_roles WHERE user_id = ${reader.userId}::int4) AS readable
      ), e AS (
        SELECT w.position, a.*, (r.admin OR a.container_id = ANY(r.readable)) AS visible, r.admin, r.readable
        FROM w JOIN audit_events a ON a.id = w.event_id CROSS JOIN r
      )
      SELECT e.position, e.id, e.at, e.user_name, e.action, e.object_class, e.object_id, e.object_number,
             e.container_id, c.name AS container, CASE WHEN e.visible THEN e.detail END AS detail,
             m.name AS object_name, COALESCE(m.class, e.object_class) AS object_cls, m.soft_type,
             CASE e.action
               WHEN 'objects.state' THEN e.detail->>'to'
               WHEN 'objects.revise' THEN e.detail->'state'->>'to'
               WHEN 'objects.create' THEN e.detail->>'state'
               ELSE COALESCE((SELECT i.state FROM iterations i WHERE i.master_id = m.id AND i.latest LIMIT 1),
                             e.detail->>'state')
             END AS state,
             e.visible,
             (NOT e.admin AND e.action = ANY(${MEMBER_ACTIONS}::text[]) AND e.detail->>'member' IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM masters mm
                               WHERE mm.class || ${MASTER_SUFFIX} = e.object_class AND mm.number = e.detail->>'member'
                                 AND mm.container_id = ANY(e.readable))) AS member_hidden
      FROM e
      LEFT JOIN containers c ON c.id = e.container_id
      LEFT JOIN masters m ON m.id = e.object_id AND m.class || ${MASTER_SUFFIX} = e.object_class
      ORDER BY e.position`;
    return rows.map(toRecord);
  }

  /** The events with these audit ids (dead letters), read as `reader` may. */
  async byIds(ids: bigint[], reader: EventReader): Promise<EventRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.prisma.$queryRaw<Row[]>`
      WITH r AS (
        SELECT ${reader.admin}::boolean AS admin,
               ARRAY(SELECT container_id FROM access_roles WHERE user_id = ${reader.userId}::int4) AS readable
      ), e AS (
        SELECT COALESCE((SELECT l.position FROM event_log l WHERE l.event_id = a.id LIMIT 1), 0)::int8 AS position,
               a.*, (r.admin OR a.container_id = ANY(r.readable)) AS visible, r.admin, r.readable
        FROM audit_events a CROSS JOIN r WHERE a.id = ANY(${ids}::int8[])
      )
      SELECT e.position, e.id, e.at, e.user_name, e.action, e.object_class, e.object_id, e.object_number,
             e.container_id, c.name AS container, CASE WHEN e.visible THEN e.detail END AS detail,
             m.name AS object_name, COALESCE(m.class, e.object_class) AS object_cls, m.soft_type,
             NULL::text AS state, e.visible,
             (NOT e.admin AND e.action = ANY(${MEMBER_ACTIONS}::text[]) AND e.detail->>'member' IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM masters mm
                               WHERE mm.class || ${MASTER_SUFFIX} = e.object_class AND mm.number = e.detail->>'member'
                                 AND mm.container_id = ANY(e.readable))) AS member_hidden
      FROM e
      LEFT JOIN containers c ON c.id = e.container_id
      LEFT JOIN masters m ON m.id = e.object_id AND m.class || ${MASTER_SUFFIX} = e.object_class
      ORDER BY e.id`;
    return rows.map(toRecord);
  }

  /** The log's first and last positions (0 when empty) and when its first event was logged. */
  async bounds(): Promise<{ first: bigint; last: bigint; firstAt: Date | null }> {
    const [row] = await this.prisma.$queryRaw<{ first: bigint | null; last: bigint | null; first_at: Date | null }[]>`
      SELECT (SELECT min(position) FROM event_log) AS first, (SELECT max(position) FROM event_log) AS last,
             (SELECT logged_at FROM event_log ORDER BY position LIMIT 1) AS first_at`;
    return { first: row.first ?? 0n, last: row.last ?? 0n, firstAt: row.first_at };
  }

  /**
   * Per subscription: the events after its cursor (counted up to a million) and when the oldest
   * of them was committed.
   */
  async backlogs(ids: number[]): Promise<Map<number, { backlog: number; oldest: Date | null }>> {
    const rows = await this.prisma.$queryRaw<{ id: number; backlog: number; oldest: Date | null }[]>`
      SELECT s.id,
             (SELECT count(*)::int FROM (SELECT 1 FROM event_log l WHERE l.position > s.cursor LIMIT 1000000) b) AS backlog,
             (SELECT l.logged_at FROM event_log l WHERE l.position > s.cursor ORDER BY l.position LIMIT 1) AS oldest
      FROM event_subscriptions s WHERE s.id = ANY(${ids}::int4[])`;
    return new Map(rows.map((r) => [r.id, { backlog: r.backlog, oldest: r.oldest }]));
  }

  /**
   * Deletes up to `batch` events logged before `before` that every active subscription has
   * handled; how many went.
   */
  async prune(before: Date, batch: number): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM event_log WHERE position IN (
        SELECT position FROM event_log
        WHERE logged_at < ${before}
          AND position <= COALESCE((SELECT min(cursor) FROM event_subscriptions WHERE active), 9223372036854775807)
        ORDER BY position LIMIT ${batch})`;
  }
}

function toRecord(r: Row): EventRecord {
  // A business object's events name its master; a deleted one's master class stands for its class.
  const cls = r.object_cls?.endsWith(MASTER_SUFFIX) ? r.object_cls.slice(0, -MASTER_SUFFIX.length) : r.object_cls;
  return {
    position: BigInt(r.position),
    id: BigInt(r.id),
    at: r.at,
    userName: r.user_name,
    action: r.action,
    objectClass: r.object_class,
    objectId: r.object_id === null ? null : BigInt(r.object_id),
    objectNumber: r.object_number,
    containerId: r.container_id,
    container: r.container,
    detail: r.detail,
    objectName: r.object_name,
    objectType: r.soft_type ?? cls,
    objectCls: cls,
    softType: r.soft_type,
    state: r.state,
    visible: r.visible,
    memberHidden: r.member_hidden,
  };
}
