import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';

export interface WorkspaceRecord {
  id: number;
  name: string;
  container: string;
  owner: string;
}

const WORKSPACE_COLUMNS = {
  id: true,
  name: true,
  container: { select: { name: true } },
  owner: { select: { name: true } },
} as const;

type WorkspaceRow = { id: number; name: string; container: { name: string }; owner: { name: string } };
const record = (w: WorkspaceRow): WorkspaceRecord => ({
  id: w.id,
  name: w.name,
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
    const [total, rows] = await this.prisma.$transaction([
      this.prisma.workspace.count(),
      this.prisma.workspace.findMany({ select: WORKSPACE_COLUMNS, orderBy: { name: 'asc' }, skip, take }),
    ]);
    return { total, rows: rows.map(record) };
  }

  containerId(name: string): Promise<{ id: number } | null> {
    return this.prisma.container.findUnique({ where: { name }, select: { id: true } });
  }

  userId(name: string): Promise<{ id: number } | null> {
    return this.prisma.user.findUnique({ where: { name }, select: { id: true } });
  }

  async create(name: string, containerId: number, ownerId: number): Promise<WorkspaceRecord> {
    return record(
      await this.prisma.workspace.create({ data: { name, containerId, ownerId }, select: WORKSPACE_COLUMNS }),
    );
  }

  async delete(name: string): Promise<boolean> {
    const { count } = await this.prisma.workspace.deleteMany({ where: { name } });
    return count > 0;
  }

  async roles(): Promise<string[]> {
    const rows = await this.prisma.contentRole.findMany({ orderBy: { name: 'asc' }, take: CONTENT_ROLES_MAX });
    return rows.map((r) => r.name);
  }

  /**
   * Adds a role unless CONTENT_ROLES_MAX exist, in one transaction under an advisory lock so two
   * additions cannot both pass the count. Returns false when the limit is reached.
   */
  createRole(name: string): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('pdm.content_roles'))`;
      if ((await tx.contentRole.count()) >= CONTENT_ROLES_MAX) return false;
      await tx.contentRole.create({ data: { name } });
      return true;
    });
  }
}
