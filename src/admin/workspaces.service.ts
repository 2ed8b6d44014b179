import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { OidClass, formatOid } from '../catalog/oid.js';
import { clip } from '../common/clip.js';
import { requireAdmin } from '../auth/admin-access.js';
import { isUniqueViolation } from '../common/database-errors.js';
import { contentRoleEvent, workspaceEvent } from './admin-audit.js';
import type { PageQueryDto } from '../common/paging.dto.js';
import type {
  ContentRoleDto,
  ContentRoleListDto,
  CreateWorkspaceDto,
  WorkspaceDto,
  WorkspaceListDto,
} from './dto/workspaces.dto.js';
import { AdminWorkspacesRepository, CONTENT_ROLES_MAX, type WorkspaceRecord } from './workspaces.repository.js';

/** Workspaces and content roles (administrators). */
@Injectable()
export class WorkspacesService {
  constructor(private readonly workspaces: AdminWorkspacesRepository) {}

  async list(caller: AuthUser, page: PageQueryDto): Promise<WorkspaceListDto> {
    requireAdmin(caller);
    const { total, rows } = await this.workspaces.page((page.page - 1) * page.limit, page.limit);
    return { count: rows.length, total, page: page.page, limit: page.limit, items: rows.map(toDto) };
  }

  async create(caller: AuthUser, body: CreateWorkspaceDto): Promise<WorkspaceDto> {
    requireAdmin(caller);
    const container = await this.workspaces.containerId(body.container);
    if (!container) throw new NotFoundException(`container: no container named '${clip(body.container)}'`);
    const owner = await this.workspaces.userId(body.owner);
    if (!owner) throw new NotFoundException(`owner: no user named '${clip(body.owner)}'`);
    const name = body.name.normalize('NFC');
    try {
      const created = await this.workspaces.create(name, container.id, owner.id, (w) =>
        workspaceEvent(caller.id, 'create', w),
      );
      return toDto(created);
    } catch (e) {
      if (isUniqueViolation(e)) throw new ConflictException(`name: a workspace named '${clip(name)}' already exists`);
      throw e;
    }
  }

  async remove(caller: AuthUser, name: string): Promise<void> {
    requireAdmin(caller);
    const deleted = await this.workspaces.delete(name, (w) => workspaceEvent(caller.id, 'delete', w));
    if (!deleted) throw new NotFoundException(`no workspace named '${clip(name)}'`);
  }

  async roles(caller: AuthUser): Promise<ContentRoleListDto> {
    requireAdmin(caller);
    const items = (await this.workspaces.roles()).map((name) => ({ name }));
    return { count: items.length, items };
  }

  async createRole(caller: AuthUser, name: string): Promise<ContentRoleDto> {
    requireAdmin(caller);
    try {
      if (!(await this.workspaces.createRole(name, contentRoleEvent(caller.id, name)))) {
        throw new ConflictException(`there are ${CONTENT_ROLES_MAX} content roles already, the most there may be`);
      }
    } catch (e) {
      if (isUniqueViolation(e)) throw new ConflictException(`name: the content role ${name} exists`);
      throw e;
    }
    return { name };
  }
}

function toDto(w: WorkspaceRecord): WorkspaceDto {
  return { oid: formatOid(OidClass.workspace, w.id), name: w.name, container: w.container, owner: w.owner };
}
