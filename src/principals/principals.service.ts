import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { UsersRepository } from '../auth/users.repository.js';
import { formatOid } from '../catalog/oid.js';
import { OidClass } from '../catalog/standard-classes.js';
import { hasWildcard, likePattern } from '../common/wildcard.js';
import { GroupsService } from '../groups/groups.service.js';
import type {
  MeDto,
  PrincipalGroupListDto,
  PrincipalSearchQueryDto,
  PrincipalUserListDto,
} from './dto/principals.dto.js';

const USER_CLASS = OidClass.user;
/** Groups are not in the catalog (no query reads them); their OIDs name Windchill's group class. */
const GROUP_CLASS = 'wt.org.WTGroup';

/**
 * Who is there and who am I: the names a client needs to fill a user or group picker, open to
 * every signed-in user (e-mail addresses and flags stay administration's), and the caller's own
 * groups and containers.
 */
@Injectable()
export class PrincipalsService {
  constructor(
    private readonly userRows: UsersRepository,
    private readonly groupRows: GroupsService,
  ) {}

  async findUsers(q: PrincipalSearchQueryDto): Promise<PrincipalUserListDto> {
    const { total, rows } = await this.userRows.searchPublic(searchPattern(q.name), (q.page - 1) * q.limit, q.limit);
    return {
      count: rows.length,
      total,
      page: q.page,
      limit: q.limit,
      items: rows.map((u) => ({ oid: formatOid(USER_CLASS, u.id), name: u.name, fullName: u.fullName })),
    };
  }

  async findGroups(q: PrincipalSearchQueryDto): Promise<PrincipalGroupListDto> {
    // The group list takes whole-name patterns: a plain text is searched as a part of the name.
    const name = q.name && !hasWildcard(q.name) ? `*${q.name}*` : q.name;
    const page = await this.groupRows.searchGroups({ name, page: q.page, limit: q.limit });
    return {
      count: page.items.length,
      total: page.total,
      page: q.page,
      limit: q.limit,
      items: page.items.map((g) => ({ oid: formatOid(GROUP_CLASS, g.id), name: g.name, description: g.description })),
    };
  }

  async me(caller: AuthUser): Promise<MeDto> {
    const [groups, containers] = await Promise.all([
      this.groupRows.userGroups(caller.id),
      this.groupRows.userContainerRoles(caller.id),
    ]);
    return {
      oid: formatOid(USER_CLASS, caller.id),
      name: caller.name,
      fullName: caller.fullName,
      email: caller.email,
      admin: caller.admin,
      via: caller.via ?? 'basic',
      scopes: caller.scopes ? [...caller.scopes] : null,
      groups: groups.map((g) => ({ oid: formatOid(GROUP_CLASS, g.id), name: g.name, direct: g.direct })),
      containers: containers.map((c) => ({ name: c.containerName, role: c.role })),
    };
  }
}

/** A search text as a case-insensitive LIKE pattern: a part of the name, or the whole name when it has wildcards. */
export function searchPattern(name: string | undefined): string | null {
  if (name === undefined || name === '') return null;
  const pattern = likePattern(name, 'names');
  return hasWildcard(name) ? pattern : `%${pattern}%`;
}
