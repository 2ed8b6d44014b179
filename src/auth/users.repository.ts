import { Injectable } from '@nestjs/common';
import { type AuditEvent } from '../audit/audit-events.js';
import { auditViaPrisma, recordAudit } from '../audit/audit.repository.js';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';

/** A user as sign-in checks them: with the password hash. */
export interface UserRecord {
  id: number;
  name: string;
  passwordHash: string;
  admin: boolean;
  fullName: string | null;
  email: string | null;
  disabled: boolean;
}

/** A user as administration lists and changes them: never the password hash. */
export interface AdminUserRecord {
  id: number;
  name: string;
  fullName: string | null;
  email: string | null;
  admin: boolean;
  disabled: boolean;
  createdAt: Date;
}

/** A user as every signed-in user may see them: name and full name only. */
export interface PublicUserRecord {
  id: number;
  name: string;
  fullName: string | null;
}

export interface NewUser {
  name: string;
  passwordHash: string;
  fullName: string | null;
  email: string | null;
  admin: boolean;
  disabled: boolean;
}

export type UserChange = Partial<Omit<NewUser, 'name'>>;

/** What keeps a user from being deleted: the things that name them as creator, modifier or owner. */
export interface UserReferences {
  iterations: number;
  objects: number;
  workspaces: number;
}

const CREDENTIAL_COLUMNS = {
  id: true,
  name: true,
  passwordHash: true,
  admin: true,
  fullName: true,
  email: true,
  disabled: true,
} as const;

const ADMIN_COLUMNS = {
  id: true,
  name: true,
  fullName: true,
  email: true,
  admin: true,
  disabled: true,
  createdAt: true,
} as const;

type Tx = Prisma.TransactionClient;

/**
 * The users table: sign-in reads a user with their credentials; administration lists, creates,
 * changes and deletes users (its rules are in admin/users.service.ts).
 */
@Injectable()
export class UsersRepository {
  constructor(private readonly prisma: PrismaService) {}

  findByName(name: string): Promise<UserRecord | null> {
    return this.prisma.user.findUnique({ where: { name }, select: CREDENTIAL_COLUMNS });
  }

  findById(id: number): Promise<UserRecord | null> {
    return this.prisma.user.findUnique({ where: { id }, select: CREDENTIAL_COLUMNS });
  }

  async page(skip: number, take: number): Promise<{ total: number; rows: AdminUserRecord[] }> {
    const [total, rows] = await this.prisma.transaction(({ db }) =>
      Promise.all([db.user.count(), db.user.findMany({ select: ADMIN_COLUMNS, orderBy: { name: 'asc' }, skip, take })]),
    );
    return { total, rows };
  }

  /** Users whose name matches a LIKE pattern (escape `\`; null: all), by name, from `start`. */
  listPublic(namePattern: string | null, start: number, limit: number): Promise<PublicUserRecord[]> {
    const where = namePattern === null ? Prisma.sql`TRUE` : Prisma.sql`name LIKE ${namePattern}`;
    return this.prisma.$queryRaw<PublicUserRecord[]>`
      SELECT id, name, full_name AS "fullName" FROM users
      WHERE ${where}
      ORDER BY name
      LIMIT ${limit} OFFSET ${start}`;
  }

  /**
   * A page of users whose name or full name matches a case-insensitive LIKE pattern (escape `\`;
   * null: all), by name: the principal service's user picker.
   */
  async searchPublic(
    pattern: string | null,
    skip: number,
    take: number,
  ): Promise<{ total: number; rows: PublicUserRecord[] }> {
    const where =
      pattern === null ? Prisma.sql`TRUE` : Prisma.sql`(name ILIKE ${pattern} OR full_name ILIKE ${pattern})`;
    const rows = await this.prisma.$queryRaw<(PublicUserRecord & { total: bigint })[]>`
      SELECT id, name, full_name AS "fullName", count(*) OVER () AS total FROM users
      WHERE ${where}
      ORDER BY name
      LIMIT ${take} OFFSET ${skip}`;
    if (rows.length === 0 && skip > 0) {
      const [{ total }] = await this.prisma.$queryRaw<
        { total: bigint }[]
      >`SELECT count(*) AS total FROM users WHERE ${where}`;
      return { total: Number(total), rows: [] };
    }
    return {
      total: rows.length === 0 ? 0 : Number(rows[0].total),
      rows: rows.map(({ id, name, fullName }) => ({ id, name, fullName })),
    };
  }

  /** One user by id or name, as every signed-in user may see them. */
  findPublic(key: { id: number } | { name: string }): Promise<PublicUserRecord | null> {
    return this.prisma.user.findUnique({ where: key, select: { id: true, name: true, fullName: true } });
  }

  async any(): Promise<boolean> {
    return (await this.prisma.user.count()) > 0;
  }

  find(name: string): Promise<AdminUserRecord | null> {
    return this.prisma.user.findUnique({ where: { name }, select: ADMIN_COLUMNS });
  }

  /** Creates the user and records the event `audit` makes of it, in one transaction. */
  create(user: NewUser, audit: (created: AdminUserRecord) => AuditEvent): Promise<AdminUserRecord> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const created = await tx.user.create({ data: user, select: ADMIN_COLUMNS });
      await recordAudit(auditViaPrisma(tx), audit(created));
      return created;
    });
  }

  /**
   * Runs `work` in one transaction with the user's row locked (null when there is no such user),
   * so a change and the checks it depends on see one state. NO KEY UPDATE: the user's own writes
   * meanwhile (their audit events refer to the row) are not blocked, so two administrators
   * changing each other at once cannot deadlock on each other's row.
   */
  withLockedUser<T>(name: string, work: (tx: UserTx, user: AdminUserRecord | null) => Promise<T>): Promise<T> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const locked = await tx.$queryRaw<{ id: number }[]>`
        SELECT id FROM users WHERE name = ${name} FOR NO KEY UPDATE`;
      const user = locked.length
        ? await tx.user.findUnique({ where: { id: locked[0].id }, select: ADMIN_COLUMNS })
        : null;
      return work(new UserTx(tx), user);
    });
  }

  /**
   * Creates or updates a user a dataset gives (`existingId`: the stored one, from findByName), in
   * the caller's transaction; the user's id.
   */
  async putImported(existingId: number | null, name: string, fields: Omit<NewUser, 'name'>): Promise<number> {
    const row =
      existingId !== null
        ? await this.prisma.user.update({ where: { id: existingId }, data: fields, select: { id: true } })
        : await this.prisma.user.create({ data: { name, ...fields }, select: { id: true } });
    return row.id;
  }
}

/** The writes of one administration transaction on users. */
export class UserTx {
  constructor(private readonly tx: Tx) {}

  /**
   * Enabled administrators other than `userId`, counted under a transaction-long advisory lock
   * that every change taking an administrator away holds: two requests disabling the last two
   * administrators at once cannot both see the other one still there.
   */
  async otherEnabledAdmins(userId: number): Promise<number> {
    await this.tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('pdm.admins'))`;
    const [row] = await this.tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM users WHERE admin AND NOT disabled AND id <> ${userId}`;
    return row.n;
  }

  async references(userId: number): Promise<UserReferences> {
    const [row] = await this.tx.$queryRaw<UserReferences[]>`
      SELECT (SELECT count(*)::int FROM iterations WHERE created_by = ${userId} OR modified_by = ${userId}) AS iterations,
             (SELECT count(*)::int FROM objects WHERE created_by = ${userId} OR modified_by = ${userId}) AS objects,
             (SELECT count(*)::int FROM workspaces WHERE owner_id = ${userId}) AS workspaces`;
    return row;
  }

  async update(userId: number, change: UserChange): Promise<AdminUserRecord> {
    return this.tx.user.update({ where: { id: userId }, data: change, select: ADMIN_COLUMNS });
  }

  /** Records the change's audit event, in its transaction. */
  async audit(event: AuditEvent): Promise<void> {
    await recordAudit(auditViaPrisma(this.tx), event);
  }

  /** Deletes the user with their memberships and query sessions. */
  async delete(userId: number): Promise<void> {
    await this.tx.user.delete({ where: { id: userId } });
  }
}
