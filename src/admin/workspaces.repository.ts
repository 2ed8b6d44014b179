import { Injectable } from '@nestjs/common';
import { type AuditEvent } from '../audit/audit-events.js';
import { auditViaPrisma, recordAudit } from '../audit/audit.repository.js';
import { PrismaService } from '../prisma/prisma.service.js';

export interface WorkspaceRecord {
  id: number;
  name: string;
  containerId: number;
  container: string;
  owner: string;
}

const WORKSPACE_COLUMNS = {
  id: true,
  name: true,
  containerId: true,
  container: { select: { name: true } },
  owner: { select: { name: true } },
} as const;

type WorkspaceRow = {
  id: number;
  name: string;
  containerId: number;
  container: { name: string };
  owner: { name: string };
};
const record = (w: WorkspaceRow): WorkspaceRecord => ({
  id: w.id,
  name: w.name,
  containerId: w.containerId,
  container: w.container.name,
  owner: w.owner.name,
});

/** Most content roles there may be: the list is answered whole. */
export const CONTENT_ROLES_MAX = 200;

/** Workspaces and content roles, as administration reads and writes them. */
@Injectable()
export class AdminWorkspacesRepository {
  constructor(private readonly prisma: PrismaService) {}

  async page(skip: number, take: number): Promise<{ total: number; rows: WorkspaceRecord[] }> {
    const [total, rows] = await this.prisma.transaction(({ db }) =>
      Promise.all([
        db.workspace.count(),
        db.workspace.findMany({ select: WORKSPACE_COLUMNS, orderBy: { name: 'asc' }, skip, take }),
      ]),
    );
    return { total, rows: rows.map(record) };
  }

  containerId(name: string): Promise<{ id: number } | null> {
    return this.prisma.container.findUnique({ where: { name }, select: { id: true } });
  }

  userId(name: string): Promise<{ id: number } | null> {
    return this.prisma.user.findUnique({ where: { name }, select: { id: true } });
  }

  /** Creates the workspace and records the event `audit` makes of it, in one transaction. */
  create(
    name: string,
    containerId: number,
    ownerId: number,
    audit: (created: WorkspaceRecord) => AuditEvent,
  ): Promise<WorkspaceRecord> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const created = record(
        await tx.workspace.create({ data: { name, containerId, ownerId }, select: WORKSPACE_COLUMNS }),
      );
      await recordAudit(auditViaPrisma(tx), audit(created));
      return created;
    });
  }

  /**
   * Deletes the workspace and records the event `audit` makes of what it was, in one
   * transaction. False (and no event) when there was no such workspace.
   */
  delete(name: string, audit: (deleted: WorkspaceRecord) => AuditEvent): Promise<boolean> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const found = await tx.workspace.findUnique({ where: { name }, select: WORKSPACE_COLUMNS });
      if (!found) return false;
      const { count } = await tx.workspace.deleteMany({ where: { id: found.id } });
      if (count === 0) return false;
      await recordAudit(auditViaPrisma(tx), audit(record(found)));
      return true;
    });
  }

  async roles(): Promise<string[]> {
    const rows = await this.prisma.contentRole.findMany({ orderBy: { name: 'asc' }, take: CONTENT_ROLES_MAX });
    return rows.map((r) => r.name);
  }

  /**
   * Adds a role unless CONTENT_ROLES_MAX exist, in one transaction under an advisory lock so two
   * additions cannot both pass the count, and records `audit` there. Returns false (and records
   * nothing) when the limit is reached.
   */
  createRole(name: string, audit: AuditEvent): Promise<boolean> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('pdm.content_roles'))`;
      if ((await tx.contentRole.count()) >= CONTENT_ROLES_MAX) return false;
      await tx.contentRole.create({ data: { name } });
      await recordAudit(auditViaPrisma(tx), audit);
      return true;
    });
  }

  /** Creates or updates a workspace a dataset gives, in the caller's transaction. */
  async putImported(name: string, containerId: number, ownerId: number): Promise<void> {
    await this.prisma.workspace.upsert({
      where: { name },
      create: { name, containerId, ownerId },
      update: { containerId, ownerId },
    });
  }
}
