import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client.js';
import type { AuditEvent } from '../audit/audit-events.js';
import { auditViaPrisma, recordAudit } from '../audit/audit.repository.js';
import { likePattern } from '../common/wildcard.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { ClaimRow } from './group-rules.js';

export type GroupRole = 'reader' | 'author' | 'manager';

export interface GroupRecord {
  id: number;
  name: string;
  description: string | null;
  createdAt: Date;
  users: number;
  groups: number;
}

export type GroupMemberRecord =
  | { kind: 'group'; id: number; name: string; fullName: null; source: null }
  | { kind: 'user'; id: number; name: string; fullName: string | null; source: string };

const GROUP_COLUMNS = Prisma.sql`g.id, g.name, g.description, g.created_at AS "createdAt",
  (SELECT count(*)::int FROM group_users gu WHERE gu.group_id = g.id) AS users,
  (SELECT count(*)::int FROM group_groups gg WHERE gg.group_id = g.id) AS groups`;

/**
 * Groups, their users, nested groups and container roles. Every change of them takes the lock
 * the database triggers keeping access_roles take (access_roles_lock), first: checks made here
 * (the number of groups, the depth of nesting) then see every change committed before, and no
 * two changes recompute roles from states that miss each other.
 */
@Injectable()
export class GroupsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async page(name: string | undefined, skip: number, take: number): Promise<{ total: number; rows: GroupRecord[] }> {
    const where = name ? Prisma.sql`WHERE g.name ILIKE ${likePattern(name, 'names')}` : Prisma.empty;
    const [counted] = await this.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM groups g ${where}`;
    const rows = await this.prisma.$queryRaw<GroupRecord[]>`
      SELECT ${GROUP_COLUMNS} FROM groups g ${where} ORDER BY g.name LIMIT ${take} OFFSET ${skip}`;
    return { total: counted.n, rows };
  }

  async find(id: number): Promise<GroupRecord | null> {
    const rows = await this.prisma.$queryRaw<GroupRecord[]>`SELECT ${GROUP_COLUMNS} FROM groups g WHERE g.id = ${id}`;
    return rows[0] ?? null;
  }

  /** Creates the group unless `max` exist; null when they do. */
  create(
    data: { name: string; description: string | null },
    max: number,
    audit: (created: GroupRecord) => AuditEvent,
  ): Promise<GroupRecord | null> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await lock(tx);
      const [counted] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM groups`;
      if (counted.n >= max) return null;
      const [row] = await tx.$queryRaw<{ id: number }[]>`
        INSERT INTO groups (name, description) VALUES (${data.name}, ${data.description}) RETURNING id`;
      const created = (
        await tx.$queryRaw<GroupRecord[]>`SELECT ${GROUP_COLUMNS} FROM groups g WHERE g.id = ${row.id}`
      )[0];
      await recordAudit(auditViaPrisma(tx), audit(created));
      return created;
    });
  }

  /** Changes name or description; null when there is no such group. */
  update(
    id: number,
    data: { name?: string; description?: string | null },
    audit: (before: GroupRecord, after: GroupRecord) => AuditEvent,
  ): Promise<GroupRecord | null> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const [before] = await tx.$queryRaw<GroupRecord[]>`
        SELECT ${GROUP_COLUMNS} FROM groups g WHERE g.id = ${id} FOR UPDATE OF g`;
      if (!before) return null;
      await tx.$executeRaw`
        UPDATE groups SET name = COALESCE(${data.name ?? null}, name),
          description = CASE WHEN ${data.description !== undefined} THEN ${data.description ?? null} ELSE description END
        WHERE id = ${id}`;
      const [after] = await tx.$queryRaw<GroupRecord[]>`SELECT ${GROUP_COLUMNS} FROM groups g WHERE g.id = ${id}`;
      await recordAudit(auditViaPrisma(tx), audit(before, after));
      return after;
    });
  }

  /** Deletes the group (its users, nestings and roles go with it); null when there was none. */
  remove(id: number, audit: (gone: GroupRecord) => AuditEvent): Promise<GroupRecord | null> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await lock(tx);
      const [gone] = await tx.$queryRaw<GroupRecord[]>`SELECT ${GROUP_COLUMNS} FROM groups g WHERE g.id = ${id}`;
      if (!gone) return null;
      await tx.$executeRaw`DELETE FROM groups WHERE id = ${id}`;
      await recordAudit(auditViaPrisma(tx), audit(gone));
      return gone;
    });
  }

  /** The group's direct members: its groups first, then its users, each by name. */
  async members(id: number, skip: number, take: number): Promise<{ total: number; rows: GroupMemberRecord[] }> {
    const [counted] = await this.prisma.$queryRaw<{ n: number }[]>`
      SELECT (SELECT count(*) FROM group_groups WHERE group_id = ${id})::int
           + (SELECT count(*) FROM group_users WHERE group_id = ${id})::int AS n`;
    const rows = await this.prisma.$queryRaw<GroupMemberRecord[]>`
      SELECT * FROM (
        SELECT 'group' AS kind, g.id, g.name, NULL::text AS "fullName", NULL::text AS source
        FROM group_groups gg JOIN groups g ON g.id = gg.member_group_id WHERE gg.group_id = ${id}
        UNION ALL
        SELECT 'user', u.id, u.name, u.full_name, gu.source
        FROM group_users gu JOIN users u ON u.id = gu.user_id WHERE gu.group_id = ${id}
      ) m ORDER BY m.kind, m.name LIMIT ${take} OFFSET ${skip}`;
    return { total: counted.n, rows };
  }

  userByName(name: string): Promise<{ id: number; name: string; fullName: string | null } | null> {
    return this.prisma.user.findUnique({ where: { name }, select: { id: true, name: true, fullName: true } });
  }

  containerByName(name: string): Promise<{ id: number; cls: string; name: string } | null> {
    return this.prisma.container.findUnique({ where: { name }, select: { id: true, cls: true, name: true } });
  }

  /**
   * Puts the user into the group as an administrator's member (source ''): a member the groups
   * claim put there becomes one. 'created', 'changed' (the source was a claim's), 'kept', or
   * null when the group is gone.
   */
  putUser(
    groupId: number,
    userId: number,
    audit: (before: string | null) => AuditEvent,
  ): Promise<'created' | 'changed' | 'kept' | null> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await lock(tx);
      const group = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM groups WHERE id = ${groupId}`;
      if (!group.length) return null;
      const [old] = await tx.$queryRaw<{ source: string }[]>`
        SELECT source FROM group_users WHERE group_id = ${groupId} AND user_id = ${userId}`;
      if (old?.source === '') return 'kept';
      await tx.$executeRaw`
        INSERT INTO group_users (group_id, user_id, source) VALUES (${groupId}, ${userId}, '')
        ON CONFLICT (group_id, user_id) DO UPDATE SET source = ''`;
      await recordAudit(auditViaPrisma(tx), audit(old ? old.source : null));
      return old ? 'changed' : 'created';
    });
  }

  /** Takes the user out of the group, whoever put them there; false when they were not in it. */
  removeUser(groupId: number, userId: number, audit: (source: string) => AuditEvent): Promise<boolean> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await lock(tx);
      const [gone] = await tx.$queryRaw<{ source: string }[]>`
        DELETE FROM group_users WHERE group_id = ${groupId} AND user_id = ${userId} RETURNING source`;
      if (!gone) return false;
      await recordAudit(auditViaPrisma(tx), audit(gone.source));
      return true;
    });
  }

  /**
   * Nests `memberId` into `groupId` when the longest chain through the new nesting keeps within
   * `fits`. The database refuses a cycle (SQLSTATE PDG01, its trigger). 'created', 'kept', 'deep'
   * (too deep), or null when either group is gone.
   */
  putGroup(
    groupId: number,
    memberId: number,
    fits: (above: number, below: number) => boolean,
    audit: () => AuditEvent,
  ): Promise<'created' | 'kept' | 'deep' | null> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await lock(tx);
      const [depth] = await tx.$queryRaw<{ groups: number; edge: boolean; above: number; below: number }[]>`
        WITH RECURSIVE up(id, n) AS (
          SELECT ${groupId}::int, 0
          UNION
          SELECT gg.group_id, up.n + 1 FROM up JOIN group_groups gg ON gg.member_group_id = up.id WHERE up.n < 64
        ), down(id, n) AS (
          SELECT ${memberId}::int, 0
          UNION
          SELECT gg.member_group_id, down.n + 1 FROM down JOIN group_groups gg ON gg.group_id = down.id WHERE down.n < 64
        )
        SELECT (SELECT count(*)::int FROM groups WHERE id IN (${groupId}, ${memberId})) AS groups,
               EXISTS (SELECT 1 FROM group_groups WHERE group_id = ${groupId} AND member_group_id = ${memberId}) AS edge,
               (SELECT max(n)::int FROM up) AS above, (SELECT max(n)::int FROM down) AS below`;
      if (depth.groups < (groupId === memberId ? 1 : 2)) return null;
      if (depth.edge) return 'kept';
      if (!fits(depth.above, depth.below)) return 'deep';
      await tx.$executeRaw`INSERT INTO group_groups (group_id, member_group_id) VALUES (${groupId}, ${memberId})`;
      await recordAudit(auditViaPrisma(tx), audit());
      return 'created';
    });
  }

  removeGroup(groupId: number, memberId: number, audit: () => AuditEvent): Promise<boolean> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await lock(tx);
      const gone = await tx.$executeRaw`
        DELETE FROM group_groups WHERE group_id = ${groupId} AND member_group_id = ${memberId}`;
      if (!gone) return false;
      await recordAudit(auditViaPrisma(tx), audit());
      return true;
    });
  }

  async containerGroups(
    containerId: number,
    skip: number,
    take: number,
  ): Promise<{ total: number; rows: { id: number; name: string; role: GroupRole }[] }> {
    const [counted] = await this.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM group_memberships WHERE container_id = ${containerId}`;
    const rows = await this.prisma.$queryRaw<{ id: number; name: string; role: GroupRole }[]>`
      SELECT g.id, g.name, gm.role::text AS role
      FROM group_memberships gm JOIN groups g ON g.id = gm.group_id
      WHERE gm.container_id = ${containerId} ORDER BY g.name LIMIT ${take} OFFSET ${skip}`;
    return { total: counted.n, rows };
  }

  /** Sets the group's role in the container; 'created', 'changed', 'kept', or null (no such group). */
  setContainerRole(
    containerId: number,
    groupId: number,
    role: GroupRole,
    audit: (before: GroupRole | null) => AuditEvent,
  ): Promise<'created' | 'changed' | 'kept' | null> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await lock(tx);
      const group = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM groups WHERE id = ${groupId}`;
      if (!group.length) return null;
      const [old] = await tx.$queryRaw<{ role: GroupRole }[]>`
        SELECT role::text AS role FROM group_memberships WHERE container_id = ${containerId} AND group_id = ${groupId}`;
      if (old?.role === role) return 'kept';
      await tx.$executeRaw`
        INSERT INTO group_memberships (container_id, group_id, role) VALUES (${containerId}, ${groupId}, ${role}::member_role)
        ON CONFLICT (container_id, group_id) DO UPDATE SET role = EXCLUDED.role`;
      await recordAudit(auditViaPrisma(tx), audit(old?.role ?? null));
      return old ? 'changed' : 'created';
    });
  }

  removeContainerRole(
    containerId: number,
    groupId: number,
    audit: (before: GroupRole) => AuditEvent,
  ): Promise<boolean> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await lock(tx);
      const [gone] = await tx.$queryRaw<{ role: GroupRole }[]>`
        DELETE FROM group_memberships WHERE container_id = ${containerId} AND group_id = ${groupId}
        RETURNING role::text AS role`;
      if (!gone) return false;
      await recordAudit(auditViaPrisma(tx), audit(gone.role));
      return true;
    });
  }

  /**
   * In one statement: the groups named (wanted) and those the user is in through `source`, each
   * with the user's row in it (its source, null when none).
   */
  claimRows(userId: number, source: string, names: readonly string[]): Promise<(ClaimRow & { name: string })[]> {
    return this.prisma.$queryRaw<(ClaimRow & { name: string })[]>`
      SELECT g.id AS "groupId", g.name, gu.source, g.name = ANY(${names}::text[]) AS wanted
      FROM groups g LEFT JOIN group_users gu ON gu.group_id = g.id AND gu.user_id = ${userId}
      WHERE g.name = ANY(${names}::text[])
      UNION
      SELECT g.id, g.name, gu.source, g.name = ANY(${names}::text[])
      FROM group_users gu JOIN groups g ON g.id = gu.group_id
      WHERE gu.user_id = ${userId} AND gu.source = ${source}`;
  }

  /**
   * Adds the user to `add` with this source (a row another source made meanwhile stays) and
   * takes them out of `remove` where this source put them, with the event, in one transaction.
   */
  syncClaim(userId: number, source: string, add: number[], remove: number[], audit: AuditEvent): Promise<void> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await lock(tx);
      if (add.length) {
        await tx.$executeRaw`
          INSERT INTO group_users (group_id, user_id, source)
          SELECT g.id, ${userId}, ${source} FROM groups g WHERE g.id = ANY(${add}::int[])
          ON CONFLICT (group_id, user_id) DO NOTHING`;
      }
      if (remove.length) {
        await tx.$executeRaw`
          DELETE FROM group_users WHERE user_id = ${userId} AND source = ${source} AND group_id = ANY(${remove}::int[])`;
      }
      await recordAudit(auditViaPrisma(tx), audit);
    });
  }

  /** Every group the user is in, through nested groups too; direct: a row of their own. */
  userGroups(userId: number): Promise<{ id: number; name: string; direct: boolean }[]> {
    return this.prisma.$queryRaw<{ id: number; name: string; direct: boolean }[]>`
      WITH RECURSIVE ug(id, direct) AS (
        SELECT group_id, true FROM group_users WHERE user_id = ${userId}
        UNION
        SELECT gg.group_id, false FROM ug JOIN group_groups gg ON gg.member_group_id = ug.id
      )
      SELECT g.id, g.name, bool_or(ug.direct) AS direct FROM ug JOIN groups g ON g.id = ug.id
      GROUP BY g.id, g.name ORDER BY g.name`;
  }

  userContainerRoles(userId: number): Promise<{ containerId: number; containerName: string; role: string }[]> {
    return this.prisma.$queryRaw<{ containerId: number; containerName: string; role: string }[]>`
      SELECT c.id AS "containerId", c.name AS "containerName", a.role::text AS role
      FROM access_roles a JOIN containers c ON c.id = a.container_id
      WHERE a.user_id = ${userId} ORDER BY c.name`;
  }
}

/** The lock every change of roles takes (see the migration 20261127210000_access_roles). */
async function lock(tx: PrismaService): Promise<void> {
  await tx.$executeRaw`SELECT access_roles_lock()`;
}
