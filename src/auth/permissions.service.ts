import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';
import type { AuthUser } from './auth-user.js';

export type Access = 'none' | 'read' | 'write' | 'manage';

/** The permission model: what a caller may do in a container given its membership role (or none). */
export function accessFromRole(user: AuthUser, role: 'reader' | 'author' | 'manager' | null): Access {
  if (user.admin) return 'manage';
  if (role === null) return 'none';
  return role === 'reader' ? 'read' : role === 'author' ? 'write' : 'manage';
}

/**
 * Container permissions: an admin may do everything; a member reads its containers, an author
 * or manager also writes there, a manager also manages (report templates). Services answer an
 * object the caller may not read exactly like one that does not exist.
 */
@Injectable()
export class PermissionsService {
  constructor(private readonly prisma: PrismaService) {}

  async access(user: AuthUser, containerId: number): Promise<Access> {
    if (user.admin) return 'manage';
    const m = await this.prisma.membership.findUnique({
      where: { containerId_userId: { containerId, userId: user.id } },
      select: { role: true },
    });
    return accessFromRole(user, m?.role ?? null);
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
    // On the pool under Prisma, prepared once per connection: many reads start with it, and
    // Prisma's own query costs several times the statement here (the structure benchmark).
    const res = await this.prisma.pgPool.query<{ id: number }>({
      name: 'permissions-readable',
      text: 'SELECT container_id AS id FROM memberships WHERE user_id = $1',
      values: [user.id],
    });
    return res.rows.map((r) => r.id);
  }
}
