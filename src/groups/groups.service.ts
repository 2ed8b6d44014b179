import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { requireAdmin } from '../auth/admin-access.js';
import { PermissionsService } from '../auth/permissions.service.js';
import { clip } from '../common/clip.js';
import { isUniqueViolation, sqlState } from '../common/database-errors.js';
import type { PageQueryDto } from '../common/paging.dto.js';
import type {
  ContainerGroupDto,
  ContainerGroupListDto,
  CreateGroupDto,
  GroupDto,
  GroupListDto,
  GroupMemberListDto,
  GroupNestingDto,
  GroupUserDto,
  UpdateGroupDto,
} from './dto/groups.dto.js';
import { containerRoleEvent, groupEvent, groupFacts } from './groups-audit.js';
import { GroupsRepository, type GroupRecord, type GroupRole } from './groups.repository.js';
import { claimChanges, claimGroupNames, GROUPS_MAX, nestingFits, NESTING_DEPTH_MAX } from './group-rules.js';

/** The SQLSTATE the database raises for a nesting that would close a cycle (its trigger). */
const GROUP_CYCLE = 'PDG01';

type Outcome = 'created' | 'changed' | 'kept';

/**
 * Groups of users and of groups (administrators), their roles in containers (administrators and
 * the container's managers, as for its user members), and the groups an OpenID Connect groups
 * claim gives. Rights themselves are read from access_roles by PermissionsService: the database
 * keeps that table as groups change, so nothing here is cached.
 */
@Injectable()
export class GroupsService {
  constructor(
    private readonly groups: GroupsRepository,
    private readonly permissions: PermissionsService,
  ) {}

  async searchGroups(q: { name?: string; page: number; limit: number }): Promise<GroupListDto> {
    const { total, rows } = await this.groups.page(q.name, (q.page - 1) * q.limit, q.limit);
    return { count: rows.length, total, page: q.page, limit: q.limit, items: rows.map(groupDto) };
  }

  list(caller: AuthUser, q: { name?: string; page: number; limit: number }): Promise<GroupListDto> {
    requireAdmin(caller);
    return this.searchGroups(q);
  }

  async get(caller: AuthUser, id: number): Promise<GroupDto> {
    requireAdmin(caller);
    return groupDto(await this.group(id));
  }

  async create(caller: AuthUser, body: CreateGroupDto): Promise<GroupDto> {
    requireAdmin(caller);
    const name = body.name.normalize('NFC');
    try {
      const created = await this.groups.create({ name, description: body.description ?? null }, GROUPS_MAX, (g) =>
        groupEvent(caller.id, 'create', g, { after: groupFacts(g) }),
      );
      if (!created)
        throw new ConflictException(`there are ${GROUPS_MAX} groups already, the most allowed; delete one first`);
      return groupDto(created);
    } catch (e) {
      if (isUniqueViolation(e)) throw nameTaken(name);
      throw e;
    }
  }

  async update(caller: AuthUser, id: number, body: UpdateGroupDto): Promise<GroupDto> {
    requireAdmin(caller);
    if (body.name === undefined && body.description === undefined) {
      throw new BadRequestException('give at least one of name, description');
    }
    const name = body.name?.normalize('NFC');
    try {
      const updated = await this.groups.update(id, { name, description: body.description }, (before, after) =>
        groupEvent(caller.id, 'update', after, { before: groupFacts(before), after: groupFacts(after) }),
      );
      if (!updated) throw notFound(id);
      return groupDto(updated);
    } catch (e) {
      if (isUniqueViolation(e)) throw nameTaken(name!);
      throw e;
    }
  }

  async remove(caller: AuthUser, id: number): Promise<void> {
    requireAdmin(caller);
    const gone = await this.groups.remove(id, (g) =>
      groupEvent(caller.id, 'delete', g, { before: { ...groupFacts(g), users: g.users, groups: g.groups } }),
    );
    if (!gone) throw notFound(id);
  }

  async members(caller: AuthUser, id: number, page: PageQueryDto): Promise<GroupMemberListDto> {
    requireAdmin(caller);
    const group = await this.group(id);
    const { total, rows } = await this.groups.members(id, (page.page - 1) * page.limit, page.limit);
    return {
      count: rows.length,
      total,
      page: page.page,
      limit: page.limit,
      id: group.id,
      group: group.name,
      items: rows.map((m) =>
        m.kind === 'group'
          ? { kind: 'group', id: m.id, name: m.name }
          : { kind: 'user', id: m.id, name: m.name, fullName: m.fullName, source: m.source },
      ),
    };
  }

  /** Puts a user into a group as an administrator's member; 'created' when they were not in it. */
  async putUser(caller: AuthUser, id: number, userName: string): Promise<{ outcome: Outcome; member: GroupUserDto }> {
    requireAdmin(caller);
    const group = await this.group(id);
    const user = await this.groups.userByName(userName);
    if (!user) throw new NotFoundException(`no user named '${clip(userName)}'`);
    const outcome = await this.groups.putUser(id, user.id, (before) =>
      groupEvent(caller.id, 'user.add', group, { user: user.name, before, after: '' }),
    );
    if (!outcome) throw notFound(id);
    return { outcome, member: { groupId: id, user: user.name, fullName: user.fullName, source: '' } };
  }

  async removeUser(caller: AuthUser, id: number, userName: string): Promise<void> {
    requireAdmin(caller);
    const group = await this.group(id);
    const user = await this.groups.userByName(userName);
    const removed =
      user !== null &&
      (await this.groups.removeUser(id, user.id, (source) =>
        groupEvent(caller.id, 'user.remove', group, { user: user.name, source }),
      ));
    if (!removed) throw new NotFoundException(`'${clip(userName)}' is not in group ${id} ('${clip(group.name)}')`);
  }

  /** Nests group `memberId` into group `id`: its members become members of `id`. */
  async putGroup(
    caller: AuthUser,
    id: number,
    memberId: number,
  ): Promise<{ outcome: Outcome; nesting: GroupNestingDto }> {
    requireAdmin(caller);
    if (id === memberId) throw new ConflictException(`group cycle: group ${id} cannot be a member of itself`);
    const [group, member] = [await this.group(id), await this.group(memberId)];
    let outcome: Awaited<ReturnType<GroupsRepository['putGroup']>>;
    try {
      outcome = await this.groups.putGroup(id, memberId, nestingFits, () =>
        groupEvent(caller.id, 'group.add', group, { group: { id: member.id, name: member.name } }),
      );
    } catch (e) {
      const state = sqlState(e);
      if (state?.code === GROUP_CYCLE) throw new ConflictException(state.message);
      throw e;
    }
    if (outcome === null) throw new NotFoundException(`group ${id} or ${memberId} was deleted meanwhile`);
    if (outcome === 'deep') {
      throw new ConflictException(
        `putting '${clip(member.name)}' into '${clip(group.name)}' would nest groups more than ${NESTING_DEPTH_MAX} deep`,
      );
    }
    return {
      outcome,
      nesting: { groupId: group.id, group: group.name, memberGroupId: member.id, memberGroup: member.name },
    };
  }

  async removeGroup(caller: AuthUser, id: number, memberId: number): Promise<void> {
    requireAdmin(caller);
    const group = await this.group(id);
    const removed = await this.groups.removeGroup(id, memberId, () =>
      groupEvent(caller.id, 'group.remove', group, { group: { id: memberId } }),
    );
    if (!removed) throw new NotFoundException(`group ${memberId} is not in group ${id} ('${clip(group.name)}')`);
  }

  async containerGroups(caller: AuthUser, containerName: string, page: PageQueryDto): Promise<ContainerGroupListDto> {
    const container = await this.managed(caller, containerName);
    const { total, rows } = await this.groups.containerGroups(container.id, (page.page - 1) * page.limit, page.limit);
    return { count: rows.length, total, page: page.page, limit: page.limit, container: container.name, items: rows };
  }

  async setContainerRole(
    caller: AuthUser,
    containerName: string,
    groupId: number,
    role: GroupRole,
  ): Promise<{ outcome: Outcome; role: ContainerGroupDto }> {
    const container = await this.managed(caller, containerName);
    const group = await this.group(groupId);
    const outcome = await this.groups.setContainerRole(container.id, groupId, role, (before) =>
      containerRoleEvent(caller.id, 'set', container, {
        group: { id: group.id, name: group.name },
        before,
        after: role,
      }),
    );
    if (!outcome) throw notFound(groupId);
    return { outcome, role: { id: group.id, name: group.name, role } };
  }

  async removeContainerRole(caller: AuthUser, containerName: string, groupId: number): Promise<void> {
    const container = await this.managed(caller, containerName);
    const removed = await this.groups.removeContainerRole(container.id, groupId, (before) =>
      containerRoleEvent(caller.id, 'remove', container, { group: { id: groupId }, before, after: null }),
    );
    if (!removed) throw new NotFoundException(`group ${groupId} has no role in container '${container.name}'`);
  }

  /**
   * Makes the user's groups of this source (an OpenID Connect issuer) exactly the existing
   * groups named. Unknown names are ignored; rows of another source, an administrator's ('')
   * included, are never touched. One read when nothing changes; else one transaction with the
   * event `admin.group.claims` in the user's name.
   */
  async syncClaimGroups(userId: number, source: string, groupNames: string[]): Promise<void> {
    if (source === '') throw new Error('a groups claim needs its issuer as the source');
    const names = claimGroupNames(groupNames);
    const rows = await this.groups.claimRows(userId, source, names);
    const { add, remove } = claimChanges(rows, source);
    if (!add.length && !remove.length) return;
    const named = (ids: number[]) => rows.filter((r) => ids.includes(r.groupId)).map((r) => r.name);
    await this.groups.syncClaim(userId, source, add, remove, {
      userId,
      action: 'admin.group.claims',
      objectNumber: source,
      detail: { source, added: named(add), removed: named(remove) },
    });
  }

  userGroups(userId: number): Promise<{ id: number; name: string; direct: boolean }[]> {
    return this.groups.userGroups(userId);
  }

  userContainerRoles(userId: number): Promise<{ containerId: number; containerName: string; role: string }[]> {
    return this.groups.userContainerRoles(userId);
  }

  private async group(id: number): Promise<GroupRecord> {
    const group = await this.groups.find(id);
    if (!group) throw notFound(id);
    return group;
  }

  /** The container, when the caller is an administrator or one of its managers (own or a group's role). */
  private async managed(caller: AuthUser, name: string): Promise<{ id: number; cls: string; name: string }> {
    const container = await this.groups.containerByName(name);
    if (!container) throw new NotFoundException(`no container named '${clip(name)}'`);
    const access = await this.permissions.access(caller, container.id);
    if (access === 'none') throw new NotFoundException(`no container named '${clip(name)}'`);
    if (access !== 'manage') {
      throw new ForbiddenException(`managing the groups of container '${container.name}' needs manager rights there`);
    }
    return container;
  }
}

function groupDto(g: GroupRecord): GroupDto {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    createdAt: g.createdAt.toISOString(),
    users: g.users,
    groups: g.groups,
  };
}

function notFound(id: number): NotFoundException {
  return new NotFoundException(`no group with id ${id}`);
}

function nameTaken(name: string): ConflictException {
  return new ConflictException(`name: a group named '${clip(name)}' already exists`);
}
