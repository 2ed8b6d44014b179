import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { isUniqueViolation } from '../../common/database-errors.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { requireAdmin } from '../admin-access.js';
import { TOKEN_SCOPES, type AuthUser, type TokenScope } from '../auth-user.js';
import { UsersRepository } from '../users.repository.js';
import { AccessTokensRepository, type AccessTokenRecord } from './access-tokens.repository.js';
import type { CreateTokenDto, CreatedTokenDto, TokenDto, TokenListDto } from './dto/tokens.dto.js';
import { tokenEvent } from './token-audit.js';
import { TokenAuthService } from './token-auth.service.js';
import { newToken, tokenHash, tokenHint } from './token-format.js';

const DAY_MS = 86_400_000;

/** Whose tokens a request is about: the caller's own, or (administrators) another user's. */
interface Owner {
  id: number;
  name: string;
  admin: boolean;
}

/**
 * Personal access tokens: a user creates, lists and revokes their own; an administrator those of
 * any user. A token's scopes never exceed its user's rights (`admin` only for administrators) and
 * its lifetime never exceeds AUTH_TOKEN_MAX_DAYS. The secret is returned once, at creation.
 */
@Injectable()
export class AccessTokensService {
  constructor(
    private readonly tokens: AccessTokensRepository,
    private readonly users: UsersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly auth: TokenAuthService,
  ) {}

  async list(caller: AuthUser, userName?: string): Promise<TokenListDto> {
    const owner = await this.owner(caller, userName);
    return { tokens: (await this.tokens.list(owner.id)).map(toDto) };
  }

  async create(caller: AuthUser, body: CreateTokenDto, userName?: string): Promise<CreatedTokenDto> {
    if (caller.via === 'token')
      throw new ForbiddenException(
        'a personal access token cannot create tokens: sign in with your password or the identity provider',
      );
    const owner = await this.owner(caller, userName);
    const scopes = expand(body.scopes);
    if (scopes.includes('admin') && !owner.admin)
      throw new BadRequestException(`scopes: admin is only for administrators, and '${owner.name}' is none`);
    const expiresAt = this.expiry(body);
    const token = newToken();
    try {
      const created = await this.tokens.create(
        {
          userId: owner.id,
          name: body.name,
          secretHash: tokenHash(token),
          hint: tokenHint(token),
          scopes,
          expiresAt,
          createdBy: caller.id,
        },
        this.config.authTokenLimit,
        this.clock.now(),
        (t) =>
          tokenEvent(caller.id, 'create', t, {
            name: t.name,
            hint: t.hint,
            scopes,
            expiresAt: expiresAt.toISOString(),
          }),
      );
      if (!created)
        throw new ConflictException(
          `'${owner.name}' has ${this.config.authTokenLimit} tokens in use, the most allowed: revoke one first`,
        );
      return { ...toDto(created), token };
    } catch (e) {
      if (isUniqueViolation(e)) throw new ConflictException(`'${owner.name}' has a token named '${body.name}' in use`);
      throw e;
    }
  }

  async revoke(caller: AuthUser, tokenId: number, userName?: string): Promise<void> {
    const owner = await this.owner(caller, userName);
    const revoked = await this.tokens.revoke(owner.id, tokenId, (t) =>
      tokenEvent(caller.id, 'revoke', t, { name: t.name, hint: t.hint }),
    );
    if (!revoked) throw new NotFoundException(`'${owner.name}' has no token ${tokenId} in use`);
    // At once here; the trigger's notice tells the other instances.
    this.auth.untrustToken(tokenId);
  }

  /** The caller, or for an administrator the user of that name. */
  private async owner(caller: AuthUser, userName?: string): Promise<Owner> {
    if (userName === undefined) {
      // The user's own rights, not the token's: a token never grants more than its user has.
      return { id: caller.id, name: caller.name, admin: caller.via === 'token' ? false : caller.admin };
    }
    requireAdmin(caller);
    const user = await this.users.find(userName);
    if (!user) throw new NotFoundException(`no user named '${userName}'`);
    return { id: user.id, name: user.name, admin: user.admin };
  }

  private expiry(body: CreateTokenDto): Date {
    const now = this.clock.now().getTime();
    const max = this.config.authTokenMaxDays;
    if ((body.expiresAt === undefined) === (body.expiresInDays === undefined))
      throw new BadRequestException('give exactly one of expiresAt and expiresInDays: a token always expires');
    const at = body.expiresAt !== undefined ? Date.parse(body.expiresAt) : now + body.expiresInDays! * DAY_MS;
    if (!Number.isFinite(at)) throw new BadRequestException('expiresAt must be an ISO 8601 date and time');
    if (at <= now) throw new BadRequestException('expiresAt must be in the future');
    if (at > now + max * DAY_MS) throw new BadRequestException(`a token expires within ${max} days at most`);
    return new Date(at);
  }
}

/** The scopes a token has: each includes the levels below it. */
export function expand(scopes: readonly TokenScope[]): TokenScope[] {
  const top = Math.max(...scopes.map((s) => TOKEN_SCOPES.indexOf(s)));
  return TOKEN_SCOPES.slice(0, top + 1);
}

function toDto(t: AccessTokenRecord): TokenDto {
  return {
    id: t.id,
    name: t.name,
    scopes: t.scopes,
    hint: t.hint,
    createdAt: t.createdAt.toISOString(),
    expiresAt: t.expiresAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
  };
}
