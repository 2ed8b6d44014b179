import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';

export type MembershipRole = 'reader' | 'author' | 'manager';

/**
 * The effective roles (access_roles), as permission checks read them: a user's own membership
 * and their groups' roles together, one row per container, kept by triggers of the database.
 */
@Injectable()
export class PermissionsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The user's role in the container, or null when they are no member. */
  async role(containerId: number, userId: number): Promise<MembershipRole | null> {
    const m = await this.prisma.accessRole.findUnique({
      where: { userId_containerId: { userId, containerId } },
      select: { role: true },
    });
    return m?.role ?? null;
  }

  /** The containers the user has a role in, their own or through a group. */
  async memberContainerIds(userId: number): Promise<number[]> {
    // On the pool under Prisma, prepared once per connection: many reads start with it, and
    // Prisma's own query costs several times the statement here (the structure benchmark).
    const res = await this.prisma.pgPool.query<{ id: number }>({
      name: 'permissions-readable',
      text: 'SELECT container_id AS id FROM access_roles WHERE user_id = $1',
      values: [userId],
    });
    return res.rows.map((r) => r.id);
  }
}
