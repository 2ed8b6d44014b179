import { Injectable } from '@nestjs/common';
import { canWriteAtAll, type AuthUser } from './auth-user.js';
import { PermissionsRepository, type MembershipRole } from './permissions.repository.js';

export type Access = 'none' | 'read' | 'write' | 'manage';

/**
 * The permission model: what a caller may do in a container given its membership role (or none).
 * A personal access token without the `write` scope caps it at reading: every service asks here.
 */
export function accessFromRole(user: AuthUser, role: MembershipRole | null): Access {
  const access = user.admin
    ? 'manage'
    : role === null
      ? 'none'
      : role === 'reader'
        ? 'read'
        : role === 'author'
          ? 'write'
          : 'manage';
  return access !== 'none' && !canWriteAtAll(user) ? 'read' : access;
}

/**
 * Container permissions: an admin may do everything; a member reads its containers, an author
 * or manager also writes there, a manager also manages (report templates). Services answer an
 * object the caller may not read exactly like one that does not exist.
 */
@Injectable()
export class PermissionsService {
  constructor(private readonly memberships: PermissionsRepository) {}

  async access(user: AuthUser, containerId: number): Promise<Access> {
    if (user.admin) return accessFromRole(user, null);
    return accessFromRole(user, await this.memberships.role(containerId, user.id));
  }

  async canRead(user: AuthUser, containerId: number): Promise<boolean> {
    return (await this.access(user, containerId)) !== 'none';
  }

  async canWrite(user: AuthUser, containerId: number): Promise<boolean> {
    const a = await this.access(user, containerId);
    return a === 'write' || a === 'manage';
  }

  async canManage(user: AuthUser, containerId: number): Promise<boolean> {
    return (await this.access(user, containerId)) === 'manage';
  }

  /** The containers the caller may read, or null for "all" (admins). For filters in SQL. */
  async readableContainerIds(user: AuthUser): Promise<number[] | null> {
    if (user.admin) return null;
    return this.memberships.memberContainerIds(user.id);
  }
}
