import { Injectable } from '@nestjs/common';
import type { AuditEvent } from '../../audit/audit-events.js';
import { auditViaPrisma, recordAudit } from '../../audit/audit.repository.js';
import { PrismaService } from '../../prisma/prisma.service.js';
import type { FailureKeys, FailureLimits } from '../auth-failures.repository.js';

/** A token as its owner lists it: never the secret or its hash. */
export interface AccessTokenRecord {
  id: number;
  userId: number;
  name: string;
  hint: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
}

export interface NewAccessToken {
  userId: number;
  name: string;
  secretHash: Buffer;
  hint: string;
  scopes: string[];
  expiresAt: Date;
  createdBy: number;
}

/** A token with its user's row as sign-in checks them, and the wait of the client address. */
export interface TokenCheck {
  /** Seconds the address must still wait after failed tokens (0: none). */
  wait: number;
  token: {
    id: number;
    userId: number;
    scopes: string[];
    expiresAt: Date;
    revoked: boolean;
    userName: string;
    admin: boolean;
    fullName: string | null;
    email: string | null;
    disabled: boolean;
  } | null;
}

const LISTED = {
  id: true,
  userId: true,
  name: true,
  hint: true,
  scopes: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
} as const;

/** The table access_tokens (rules in AccessTokensService and TokenAuthService). */
@Injectable()
export class AccessTokensRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The user's tokens not revoked (expired ones too, until revoked), newest first. */
  list(userId: number): Promise<AccessTokenRecord[]> {
    return this.prisma.accessToken.findMany({
      where: { userId, revokedAt: null },
      select: LISTED,
      orderBy: { id: 'desc' },
    });
  }

  /**
   * Creates the token unless the user has `limit` tokens in use (not revoked, not expired): null
   * then. The user's row is locked first (NO KEY UPDATE, as administration locks it), so parallel
   * requests of one user count one after the other and never pass the limit together.
   */
  create(
    token: NewAccessToken,
    limit: number,
    now: Date,
    audit: (created: AccessTokenRecord) => AuditEvent,
  ): Promise<AccessTokenRecord | null> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await tx.$queryRaw`SELECT id FROM users WHERE id = ${token.userId} FOR NO KEY UPDATE`;
      const inUse = await tx.accessToken.count({
        where: { userId: token.userId, revokedAt: null, expiresAt: { gt: now } },
      });
      if (inUse >= limit) return null;
      const data = { ...token, secretHash: new Uint8Array(token.secretHash) };
      const created = await tx.accessToken.create({ data, select: LISTED });
      await recordAudit(auditViaPrisma(tx), audit(created));
      return created;
    });
  }

  /** Revokes the user's token (null: no such token in use); the trigger tells every instance. */
  revoke(
    userId: number,
    tokenId: number,
    audit: (revoked: AccessTokenRecord) => AuditEvent,
  ): Promise<AccessTokenRecord | null> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const rows = await tx.$queryRaw<{ id: number }[]>`
        UPDATE access_tokens SET revoked_at = now()
        WHERE id = ${tokenId} AND user_id = ${userId} AND revoked_at IS NULL
        RETURNING id`;
      if (rows.length === 0) return null;
      const revoked = await tx.accessToken.findUniqueOrThrow({ where: { id: tokenId }, select: LISTED });
      await recordAudit(auditViaPrisma(tx), audit(revoked));
      return revoked;
    });
  }

  /**
   * What a request with a token needs, in one prepared statement: the token by its hash with its
   * user's row, and the seconds its client address must wait after failed tokens.
   */
  async check(hash: Buffer, k: FailureKeys, limits: FailureLimits): Promise<TokenCheck> {
    const { rows } = await this.prisma.pgPool.query<{
      wait: number | null;
      id: number | null;
      userId: number;
      scopes: string[];
      expiresAt: Date;
      revoked: boolean;
      userName: string;
      admin: boolean;
      fullName: string | null;
      email: string | null;
      disabled: boolean;
    }>({
      name: 'auth-token-check',
      text: `SELECT t.id, t.user_id AS "userId", t.scopes, t.expires_at AS "expiresAt",
                    t.revoked_at IS NOT NULL AS revoked, u.name AS "userName", u.admin,
                    u.full_name AS "fullName", u.email, u.disabled,
                    (SELECT max(greatest(1, ceil(extract(epoch FROM reset_at - clock_timestamp()))))::integer
                     FROM auth_failures
                     WHERE reset_at > clock_timestamp()
                       AND ((key = $2 AND count >= $4) OR (key = $3 AND count >= $5))) AS wait
             FROM (SELECT 1) one
             LEFT JOIN access_tokens t ON t.secret_hash = $1
             LEFT JOIN users u ON u.id = t.user_id`,
      values: [hash, k.pair, k.address, limits.pair, limits.address],
    });
    const { wait, id, ...rest } = rows[0];
    return { wait: wait ?? 0, token: id === null ? null : { id, ...rest } };
  }

  /** Notes a use (the caller makes it at most once a minute per token). */
  async touch(tokenId: number): Promise<void> {
    await this.prisma.$executeRaw`UPDATE access_tokens SET last_used_at = now() WHERE id = ${tokenId}`;
  }

  /** Records an event that changes no row (a use of an expired token). */
  async audit(event: AuditEvent): Promise<void> {
    await this.prisma.transaction(async ({ db: tx }) => recordAudit(auditViaPrisma(tx), event));
  }
}
