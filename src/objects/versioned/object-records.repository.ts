import { Prisma, type MemberRole } from '../../generated/prisma/client.js';
import type { AttributeValue } from './attributes.js';
import { latestOfBranchSql } from './iterations.repository.js';
import type { PrismaService } from '../../prisma/prisma.service.js';
import type { ObjectRef } from '../../catalog/object-ref.js';

/**
 * Reads of business objects (an iteration with its master, container and the caller's role in
 * it), shared by the objects repository and its change transaction.
 */

/** One iteration of a business object with its master, container and the caller's role there. */
export interface ObjectRecord {
  iterationId: number;
  masterId: number;
  /** The id of the first iteration of this iteration's version: its `VR:` reference names the version. */
  branchId: number;
  cls: string;
  softType: string | null;
  subtype: string | null;
  number: string;
  name: string;
  containerId: number;
  containerName: string;
  containerClass: string;
  version: string;
  iteration: number;
  latest: boolean;
  state: string;
  title: string | null;
  description: string | null;
  note: string | null;
  attributes: Record<string, AttributeValue>;
  createdBy: string;
  modifiedBy: string;
  createdById: number;
  modifiedById: number;
  createdAt: Date;
  modifiedAt: Date;
  /** The caller's membership role in the container (null: not a member). */
  memberRole: MemberRole | null;
  /** Who holds the object checked out (null: checked in). */
  checkedOutBy: string | null;
  checkedOutById: number | null;
  /** Whether this iteration is the working copy of a check-out. */
  working: boolean;
}

/**
 * Which iteration of a master: its latest, a version's latest, one version.iteration, or the
 * working copy of a check-out.
 */
export type IterationPick = { version: string; iteration: number | null } | 'latest' | 'working';

export type Db = Prisma.TransactionClient | PrismaService;

/** Where recordSql reads iterations and masters: the tables, or rows a statement has just inserted. */
export interface RecordSources {
  iterations: Prisma.Sql;
  masters: Prisma.Sql;
}

const TABLES: RecordSources = { iterations: Prisma.sql`iterations`, masters: Prisma.sql`masters` };

export function recordSql(
  userId: number,
  where: Prisma.Sql,
  order = Prisma.empty,
  from: RecordSources = TABLES,
): Prisma.Sql {
  return Prisma.sql`
    SELECT i.id AS "iterationId", m.id AS "masterId",
           -- LEAST: a statement that has just inserted the version's first iteration does not see it in iterations.
           LEAST(i.id, (SELECT min(b.id) FROM iterations b WHERE b.master_id = i.master_id AND b.version = i.version))
             AS "branchId",
           m.class AS cls, m.soft_type AS "softType", m.subtype,
           m.number, m.name, m.container_id AS "containerId", c.name AS "containerName",
           c.class AS "containerClass", i.version, i.iteration, i.latest, i.state, i.title, i.description, i.note,
           i.attributes, cu.name AS "createdBy", mu.name AS "modifiedBy", i.created_by AS "createdById",
           i.modified_by AS "modifiedById", i.created_at AS "createdAt",
           i.modified_at AS "modifiedAt", mb.role::text AS "memberRole",
           ou.name AS "checkedOutBy", m.checked_out_by AS "checkedOutById", i.working
    FROM ${from.iterations} i
    JOIN ${from.masters} m ON m.id = i.master_id
    LEFT JOIN users ou ON ou.id = m.checked_out_by
    JOIN containers c ON c.id = m.container_id
    JOIN users cu ON cu.id = i.created_by
    JOIN users mu ON mu.id = i.modified_by
    LEFT JOIN access_roles mb ON mb.container_id = m.container_id AND mb.user_id = ${userId}
    WHERE ${where}
    ${order}`;
}

/** A working copy is seen by its holder alone; for everyone else it does not exist. */
export function workingVisibleTo(userId: number): Prisma.Sql {
  return Prisma.sql`(NOT i.working OR m.checked_out_by = ${userId})`;
}

/** The iterations a reference names: one, or one per class carrying the number. */
export function findByRef(db: Db, ref: ObjectRef, userId: number): Promise<ObjectRecord[]> {
  const where =
    ref.kind === 'oid'
      ? Prisma.sql`i.id = ${ref.branch ? latestOfBranchSql(ref.id) : ref.id} AND m.class = ${ref.cls}
          AND ${workingVisibleTo(userId)}`
      : ref.cls === null
        ? Prisma.sql`m.number = ${ref.number} AND i.latest`
        : Prisma.sql`m.number = ${ref.number} AND m.class = ${ref.cls} AND i.latest`;
  return db.$queryRaw<ObjectRecord[]>(recordSql(userId, where, Prisma.sql`ORDER BY m.class LIMIT 10`));
}

/** One iteration of a master (see IterationPick), or null. */
export async function findInMaster(
  db: Db,
  masterId: number,
  pick: IterationPick,
  userId: number,
): Promise<ObjectRecord | null> {
  const where =
    pick === 'latest'
      ? Prisma.sql`i.master_id = ${masterId} AND i.latest`
      : pick === 'working'
        ? Prisma.sql`i.master_id = ${masterId} AND i.working`
        : pick.iteration === null
          ? Prisma.sql`i.master_id = ${masterId} AND i.version = ${pick.version} AND NOT i.working`
          : Prisma.sql`i.master_id = ${masterId} AND i.version = ${pick.version} AND i.iteration = ${pick.iteration}
              AND ${workingVisibleTo(userId)}`;
  const rows = await db.$queryRaw<ObjectRecord[]>(
    recordSql(userId, where, Prisma.sql`ORDER BY i.iteration DESC LIMIT 1`),
  );
  return rows[0] ?? null;
}
