import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';

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
}

const MASTER_COLUMNS = Prisma.raw('m.id, m.class AS cls, m.number, m.name, m.container_id, c.name AS container');

/** Reads of audit_events: the history of one object and the administrators' listing. */
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

  /** One page of the events the filter selects, newest first, and how many it selects in all. */
  async page(filter: EventFilter, skip: number, take: number): Promise<{ total: number; rows: EventRow[] }> {
    const where = conditions(filter);
    const [[{ total }], rows] = await this.prisma.$transaction([
      this.prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM audit_events e WHERE ${where}`,
      this.prisma.$queryRaw<EventRow[]>`
        SELECT e.id, e.at, e.user_name, e.action, e.object_class, e.object_id, e.object_number,
               c.name AS container, e.detail
        FROM audit_events e LEFT JOIN containers c ON c.id = e.container_id
        WHERE ${where}
        ORDER BY e.id DESC
        LIMIT ${take} OFFSET ${skip}`,
    ]);
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
