import { Injectable } from '@nestjs/common';
import { type AuditEvent } from '../audit/audit-events.js';
import { auditViaPrisma, recordAudit } from '../audit/audit.repository.js';
import { PrismaService } from '../prisma/prisma.service.js';

export interface AdminContainerRecord {
  id: number;
  cls: string;
  name: string;
  description: string | null;
  createdAt: Date;
}

export interface MemberRecord {
  user: string;
  fullName: string | null;
  role: 'reader' | 'author' | 'manager';
}

/** What makes a container not empty: business content that would be lost with it. */
export interface ContainerContents {
  masters: number;
  objects: number;
  links: number;
  reports: number;
}

const CONTAINER_COLUMNS = { id: true, cls: true, name: true, description: true, createdAt: true } as const;

/** Containers and their memberships, as administration reads and writes them. */
@Injectable()
export class AdminContainersRepository {
  constructor(private readonly prisma: PrismaService) {}

  async page(skip: number, take: number): Promise<{ total: number; rows: AdminContainerRecord[] }> {
    const [total, rows] = await this.prisma.transaction(({ db }) =>
      Promise.all([
        db.container.count(),
        db.container.findMany({ select: CONTAINER_COLUMNS, orderBy: { name: 'asc' }, skip, take }),
      ]),
    );
    return { total, rows };
  }

  find(name: string): Promise<AdminContainerRecord | null> {
    return this.prisma.container.findUnique({ where: { name }, select: CONTAINER_COLUMNS });
  }

  /** The caller's role in the container, their own or a group's; null when they have none. */
  async roleOf(containerId: number, userId: number): Promise<MemberRecord['role'] | null> {
    const m = await this.prisma.accessRole.findUnique({
      where: { userId_containerId: { userId, containerId } },
      select: { role: true },
    });
    return m?.role ?? null;
  }

  /** Creates the container and records the event `audit` makes of it, in one transaction. */
  create(
    data: { cls: string; name: string; description: string | null },
    audit: (created: AdminContainerRecord) => AuditEvent,
  ): Promise<AdminContainerRecord> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const created = await tx.container.create({ data, select: CONTAINER_COLUMNS });
      await recordAudit(auditViaPrisma(tx), audit(created));
      return created;
    });
  }

  /**
   * Changes the container and records the event `audit` makes of it as it was (read with its row
   * locked) and as it is, in one transaction.
   */
  update(
    id: number,
    data: { name?: string; description?: string | null },
    audit: (before: AdminContainerRecord, after: AdminContainerRecord) => AuditEvent,
  ): Promise<AdminContainerRecord> {
    return this.prisma.transaction(async ({ db: tx }) => {
      // NO KEY UPDATE: writes in the container meanwhile (their audit events refer to it) go on.
      await tx.$queryRaw`SELECT id FROM containers WHERE id = ${id} FOR NO KEY UPDATE`;
      const before = await tx.container.findUnique({ where: { id }, select: CONTAINER_COLUMNS });
      const after = await tx.container.update({ where: { id }, data, select: CONTAINER_COLUMNS });
      await recordAudit(auditViaPrisma(tx), audit(before!, after));
      return after;
    });
  }

  /**
   * Deletes the container if it holds no business content, in one transaction with its row
   * locked: an object being added at the same time either commits first (and is counted) or waits
   * and then finds the container gone. Memberships, numbering rules and workspaces go with it.
   * Returns null when there was no such container, the contents when it was not empty.
   */
  deleteIfEmpty(
    name: string,
    audit: (deleted: AdminContainerRecord) => AuditEvent,
  ): Promise<{ deleted: boolean; contents: ContainerContents } | null> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const locked = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM containers WHERE name = ${name} FOR UPDATE`;
      if (!locked.length) return null;
      const id = locked[0].id;
      const [contents] = await tx.$queryRaw<ContainerContents[]>`
        SELECT (SELECT count(*)::int FROM masters WHERE container_id = ${id}) AS masters,
               (SELECT count(*)::int FROM objects WHERE container_id = ${id}) AS objects,
               (SELECT count(*)::int FROM links WHERE container_id = ${id}) AS links,
               (SELECT count(*)::int FROM report_templates WHERE container_id = ${id}) AS reports`;
      if (contents.masters + contents.objects + contents.links + contents.reports > 0) {
        return { deleted: false, contents };
      }
      // Recorded first: the event refers to the container, which the delete then clears from it.
      const gone = await tx.container.findUniqueOrThrow({ where: { id }, select: CONTAINER_COLUMNS });
      await recordAudit(auditViaPrisma(tx), audit(gone));
      await tx.container.delete({ where: { id } });
      return { deleted: true, contents };
    });
  }

  async members(containerId: number, skip: number, take: number): Promise<{ total: number; rows: MemberRecord[] }> {
    const [total, rows] = await this.prisma.transaction(({ db }) =>
      Promise.all([
        db.membership.count({ where: { containerId } }),
        db.membership.findMany({
          where: { containerId },
          select: { role: true, user: { select: { name: true, fullName: true } } },
          orderBy: { user: { name: 'asc' } },
          skip,
          take,
        }),
      ]),
    );
    return { total, rows: rows.map((m) => ({ user: m.user.name, fullName: m.user.fullName, role: m.role })) };
  }

  userId(name: string): Promise<{ id: number; fullName: string | null } | null> {
    return this.prisma.user.findUnique({ where: { name }, select: { id: true, fullName: true } });
  }

  /**
   * Sets the role and records the event `audit` makes of the role before (null: not a member)
   * and after, in one transaction; true when the membership is new.
   */
  setMember(
    containerId: number,
    userId: number,
    role: MemberRecord['role'],
    audit: (before: MemberRecord['role'] | null) => AuditEvent,
  ): Promise<boolean> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const [old] = await tx.$queryRaw<{ role: MemberRecord['role'] }[]>`
        SELECT role::text AS role FROM memberships WHERE container_id = ${containerId} AND user_id = ${userId} FOR UPDATE`;
      const rows = await tx.$queryRaw<{ created: boolean }[]>`
        INSERT INTO memberships (container_id, user_id, role) VALUES (${containerId}, ${userId}, ${role}::member_role)
        ON CONFLICT (container_id, user_id) DO UPDATE SET role = EXCLUDED.role
        RETURNING (xmax = 0) AS created`;
      await recordAudit(auditViaPrisma(tx), audit(rows[0].created ? null : (old?.role ?? null)));
      return rows[0].created;
    });
  }

  /**
   * Removes the membership and records the event `audit` makes of the role it had, in one
   * transaction; false (and no event) when there was no such membership.
   */
  removeMember(
    containerId: number,
    userId: number,
    audit: (before: MemberRecord['role']) => AuditEvent,
  ): Promise<boolean> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const [gone] = await tx.$queryRaw<{ role: MemberRecord['role'] }[]>`
        DELETE FROM memberships WHERE container_id = ${containerId} AND user_id = ${userId} RETURNING role::text AS role`;
      if (!gone) return false;
      await recordAudit(auditViaPrisma(tx), audit(gone.role));
      return true;
    });
  }

  /** Creates or updates a container a dataset gives, in the caller's transaction; its id. */
  async putImported(name: string, cls: string, description: string | null): Promise<number> {
    const row = await this.prisma.container.upsert({
      where: { name },
      create: { name, cls, description },
      update: { cls, description },
      select: { id: true },
    });
    return row.id;
  }

  /** Gives a user a role in a container (a member already gets the new role), in the caller's transaction. */
  async putImportedMember(containerId: number, userId: number, role: MemberRecord['role']): Promise<void> {
    await this.prisma.membership.upsert({
      where: { containerId_userId: { containerId, userId } },
      create: { containerId, userId, role },
      update: { role },
    });
  }

  async idOf(name: string): Promise<number | null> {
    const row = await this.prisma.container.findUnique({ where: { name }, select: { id: true } });
    return row?.id ?? null;
  }
}
