import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { AuthService } from '../auth/auth.service.js';
import { hashPassword } from '../auth/password.js';
import { UsersRepository, type AdminUserRecord, type UserChange } from '../auth/users.repository.js';
import { OidClass, formatOid } from '../catalog/oid.js';
import { clip } from '../common/clip.js';
import { isUniqueViolation, requireAdmin } from '../auth/admin-access.js';
import { userChange, userEvent, userFacts } from './admin-audit.js';
import type { PageQueryDto } from '../common/paging.dto.js';
import type { CreateUserDto, UpdateUserDto, UserDto, UserListDto } from './dto/users.dto.js';

/**
 * Users: administrators list, create, change and delete them. A changed password, a disabled or
 * deleted user or a removed admin flag holds at the next request on this instance (its cached
 * sign-ins of the user are confirmed again) and on the others once the database's notice arrives,
 * or at their next request when they do not listen (see AuthService).
 *
 * Deleting is refused while iterations or objects name the user as creator or modifier, or the
 * user owns a workspace: those records would lose who made them. Disabling is always possible
 * (except for the last enabled administrator) and is what to do with someone who leaves.
 * Every change records its audit event in its transaction (admin-audit.ts), never a password.
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly auth: AuthService,
  ) {}

  async list(caller: AuthUser, page: PageQueryDto): Promise<UserListDto> {
    requireAdmin(caller);
    const { total, rows } = await this.users.page((page.page - 1) * page.limit, page.limit);
    return { count: rows.length, total, page: page.page, limit: page.limit, items: rows.map(toDto) };
  }

  async get(caller: AuthUser, name: string): Promise<UserDto> {
    requireAdmin(caller);
    const user = await this.users.find(name);
    if (!user) throw notFound(name);
    return toDto(user);
  }

  async create(caller: AuthUser, body: CreateUserDto): Promise<UserDto> {
    requireAdmin(caller);
    const name = body.name.normalize('NFC');
    try {
      const user = await this.users.create(
        {
          name,
          passwordHash: await hashPassword(body.password),
          fullName: body.fullName ?? null,
          email: body.email ?? null,
          admin: body.admin ?? false,
          disabled: body.disabled ?? false,
        },
        (created) => userEvent(caller.id, 'create', created, { after: userFacts(created) }),
      );
      return toDto(user);
    } catch (e) {
      if (isUniqueViolation(e)) throw new ConflictException(`name: a user named '${name}' already exists`);
      throw e;
    }
  }

  async update(caller: AuthUser, name: string, body: UpdateUserDto): Promise<UserDto> {
    requireAdmin(caller);
    const change: UserChange = {};
    if (body.password !== undefined) change.passwordHash = await hashPassword(body.password);
    if (body.fullName !== undefined) change.fullName = body.fullName;
    if (body.email !== undefined) change.email = body.email;
    if (body.admin !== undefined) change.admin = body.admin;
    if (body.disabled !== undefined) change.disabled = body.disabled;
    if (Object.keys(change).length === 0) {
      throw new BadRequestException('give at least one of password, fullName, email, admin, disabled');
    }
    const updated = await this.users.withLockedUser(name, async (tx, user) => {
      if (!user) throw notFound(name);
      const losesAdmin = user.admin && !user.disabled && (change.admin === false || change.disabled === true);
      if (losesAdmin && (await tx.otherEnabledAdmins(user.id)) === 0) {
        throw new ConflictException(
          `${change.admin === false ? 'admin' : 'disabled'}: '${name}' is the last enabled administrator; ` +
            'make another user administrator first',
        );
      }
      const updated = await tx.update(user.id, change);
      await tx.audit(userEvent(caller.id, 'update', user, userChange(user, change)));
      return updated;
    });
    this.auth.untrustUser(updated.id);
    return toDto(updated);
  }

  async remove(caller: AuthUser, name: string): Promise<void> {
    requireAdmin(caller);
    const id = await this.users.withLockedUser(name, async (tx, user) => {
      if (!user) throw notFound(name);
      if (user.admin && !user.disabled && (await tx.otherEnabledAdmins(user.id)) === 0) {
        throw new ConflictException(`'${name}' is the last enabled administrator and cannot be deleted`);
      }
      const refs = await tx.references(user.id);
      const held = [
        refs.iterations && `${refs.iterations} iteration(s) they created or changed`,
        refs.objects && `${refs.objects} object(s) they created or changed`,
        refs.workspaces && `${refs.workspaces} workspace(s) they own`,
      ].filter(Boolean);
      if (held.length) {
        throw new ConflictException(
          `user '${name}' cannot be deleted while ${held.join(', ')} name them; ` +
            'disable the user instead (PATCH with {"disabled": true})',
        );
      }
      // Recorded first: a caller deleting their own user is still there to be named.
      await tx.audit(userEvent(caller.id, 'delete', user, { before: userFacts(user) }));
      await tx.delete(user.id);
      return user.id;
    });
    this.auth.untrustUser(id);
  }
}

function notFound(name: string): NotFoundException {
  return new NotFoundException(`no user named '${clip(name)}'`);
}

function toDto(u: AdminUserRecord): UserDto {
  return {
    oid: formatOid(OidClass.user, u.id),
    name: u.name,
    fullName: u.fullName,
    email: u.email,
    admin: u.admin,
    disabled: u.disabled,
    createdAt: u.createdAt.toISOString(),
  };
}
