import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
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
 * are in audit/audit.repository.ts, run in the transaction of each change.
 */
@Injectable()
export class HistoryRepository {
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
    const [[{ total }], rows] = await this.prisma.transaction(({ db }) =>
      Promise.all([
        db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM audit_events e WHERE ${where}`,
        db.$queryRaw<EventRow[]>`
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
