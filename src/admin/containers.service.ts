import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { formatOid } from '../catalog/oid.js';
import { clip } from '../common/clip.js';
import { small } from '../audit/audit-detail.js';
import { requireAdmin } from '../auth/admin-access.js';
import { isUniqueViolation } from '../common/database-errors.js';
import { containerEvent } from './admin-audit.js';
import {
  AdminContainersRepository,
  type AdminContainerRecord,
  type ContainerContents,
  type MemberRecord,
} from './containers.repository.js';
import type {
  ContainerDto,
  ContainerListDto,
  CreateContainerDto,
  MemberDto,
  MemberListDto,
  UpdateContainerDto,
} from './dto/containers.dto.js';
import type { PageQueryDto } from '../common/paging.dto.js';

/**
 * Containers (administrators) and their memberships (administrators, and the managers of the
 * container for that container). A container the caller may not read is answered 404 like one
 * that does not exist; a member who is not a manager gets 403.
 */
@Injectable()
export class ContainersService {
  constructor(private readonly containers: AdminContainersRepository) {}

  async list(caller: AuthUser, page: PageQueryDto): Promise<ContainerListDto> {
    requireAdmin(caller);
    const { total, rows } = await this.containers.page((page.page - 1) * page.limit, page.limit);
    return { count: rows.length, total, page: page.page, limit: page.limit, items: rows.map(toDto) };
  }

  async create(caller: AuthUser, body: CreateContainerDto): Promise<ContainerDto> {
    requireAdmin(caller);
    const name = body.name.normalize('NFC');
    try {
      const created = await this.containers.create(
        { cls: body.class, name, description: body.description ?? null },
        (c) => containerEvent(caller.id, 'admin.container.create', c, { after: { description: small(c.description) } }),
      );
      return toDto(created);
    } catch (e) {
      if (isUniqueViolation(e)) throw nameTaken(name);
      throw e;
    }
  }

  async update(caller: AuthUser, name: string, body: UpdateContainerDto): Promise<ContainerDto> {
    requireAdmin(caller);
    if (body.name === undefined && body.description === undefined) {
      throw new BadRequestException('give at least one of name, description');
    }
    const container = await this.containers.find(name);
    if (!container) throw notFound(name);
    const newName = body.name?.normalize('NFC');
    try {
      const updated = await this.containers.update(
        container.id,
        { name: newName, description: body.description },
        (before, after) =>
          containerEvent(caller.id, 'admin.container.update', after, {
            before: { name: before.name, description: small(before.description) },
            after: { name: after.name, description: small(after.description) },
          }),
      );
      return toDto(updated);
    } catch (e) {
      if (isUniqueViolation(e)) throw nameTaken(newName ?? name);
      if ((e as { code?: string }).code === 'P2025') throw notFound(name);
      throw e;
    }
  }

  async remove(caller: AuthUser, name: string): Promise<void> {
    requireAdmin(caller);
    const outcome = await this.containers.deleteIfEmpty(name, (c) =>
      containerEvent(caller.id, 'admin.container.delete', c, { before: { description: small(c.description) } }),
    );
    if (!outcome) throw notFound(name);
    if (!outcome.deleted) {
      throw new ConflictException(`container '${clip(name)}' is not empty: it holds ${describe(outcome.contents)}`);
    }
  }

  async members(caller: AuthUser, containerName: string, page: PageQueryDto): Promise<MemberListDto> {
    const container = await this.managed(caller, containerName);
    const { total, rows } = await this.containers.members(container.id, (page.page - 1) * page.limit, page.limit);
    return {
      count: rows.length,
      total,
      page: page.page,
      limit: page.limit,
      container: container.name,
      items: rows.map(memberDto),
    };
  }

  async setMember(
    caller: AuthUser,
    containerName: string,
    userName: string,
    role: MemberRecord['role'],
  ): Promise<{ created: boolean; member: MemberDto }> {
    const container = await this.managed(caller, containerName);
    const user = await this.containers.userId(userName);
    if (!user) throw new NotFoundException(`no user named '${clip(userName)}'`);
    const created = await this.containers.setMember(container.id, user.id, role, (before) =>
      containerEvent(caller.id, 'admin.member.set', container, { user: userName, before, after: role }),
    );
    return { created, member: { user: userName, fullName: user.fullName, role } };
  }

  async removeMember(caller: AuthUser, containerName: string, userName: string): Promise<void> {
    const container = await this.managed(caller, containerName);
    const user = await this.containers.userId(userName);
    const removed =
      user !== null &&
      (await this.containers.removeMember(container.id, user.id, (before) =>
        containerEvent(caller.id, 'admin.member.remove', container, { user: userName, before, after: null }),
      ));
    if (!removed) {
      throw new NotFoundException(`'${clip(userName)}' is not a member of container '${container.name}'`);
    }
  }

  /** The container, when the caller is an administrator or one of its managers. */
  private async managed(caller: AuthUser, name: string): Promise<AdminContainerRecord> {
    const container = await this.containers.find(name);
    if (!container) throw notFound(name);
    if (caller.admin) return container;
    const role = await this.containers.roleOf(container.id, caller.id);
    if (role === null) throw notFound(name);
    if (role !== 'manager') {
      throw new ForbiddenException(`managing the members of container '${container.name}' needs manager rights there`);
    }
    return container;
  }
}

function notFound(name: string): NotFoundException {
  return new NotFoundException(`no container named '${clip(name)}'`);
}

function nameTaken(name: string): ConflictException {
  return new ConflictException(`name: a container named '${clip(name)}' already exists`);
}

function describe(c: ContainerContents): string {
  return [
    c.masters && `${c.masters} business object(s)`,
    c.objects && `${c.objects} other object(s)`,
    c.links && `${c.links} link(s)`,
    c.reports && `${c.reports} report template(s)`,
  ]
    .filter(Boolean)
    .join(', ');
}

function toDto(c: AdminContainerRecord): ContainerDto {
  return {
    oid: formatOid(c.cls, c.id),
    class: c.cls,
    name: c.name,
    description: c.description,
    createdAt: c.createdAt.toISOString(),
  };
}

function memberDto(m: MemberRecord): MemberDto {
  return { user: m.user, fullName: m.fullName, role: m.role };
}
