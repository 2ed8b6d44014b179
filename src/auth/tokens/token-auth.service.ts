import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { tokenEvent } from './token-audit.js';
import { Clock } from '../../common/clock.js';
import { HttpErrorWithHeaders } from '../../common/http-errors.js';
import type { AuthUser, TokenScope } from '../auth-user.js';
import { AuthNotices } from '../auth-notices.js';
import { FailureThrottle, keys, TOKEN_PSEUDO_NAME } from '../failure-throttle.js';
import { SharedChecks } from '../shared-checks.js';
import { AccessTokensRepository, type TokenCheck } from './access-tokens.repository.js';
import { hasValidChecksum, tokenHash } from './token-format.js';

/** Tokens whose verification is remembered at most; the least recently used go first. */
const CACHE_MAX = 10_000;
/** Failure keys remembered at most; past it every cached token is confirmed until some expire. */
const MARKS_MAX = 100_000;
const UNTRUSTED = -1;
/** last_used_at is written at most this often per token, and a use after expiry audited. */
const NOTE_EVERY_MS = 60_000;

interface CacheEntry {
  user: AuthUser;
  tokenId: number;
  /** ms since 1970: checked on every request, with no statement. */
  expiresAt: number;
  /** The listening generation in which the entry was last read with no notice coming: else UNTRUSTED. */
  trustedAt: number;
}

type Row = NonNullable<TokenCheck['token']>;

/**
 * Verifies personal access tokens (`Authorization: Bearer pdm_pat_…`). A verified token is kept
 * in memory under its hash and, like a cached password sign-in (AuthService), trusted without a
 * statement while AuthNotices listens and no notice came for the token (`k<id>`: revoked,
 * changed, deleted) or its user (`u<id>`: disabled, admin flag changed…); otherwise each request
 * confirms it in one statement (token and user row, and the failure counts of the address). Its
 * expiry is checked on every request from the remembered time.
 *
 * Unknown tokens count as failures of the client address under a name no user has
 * (TOKEN_PSEUDO_NAME), before the lookup, as wrong passwords do: guessing gets a 429, and so does
 * a valid token from that address until the window has passed.
 */
@Injectable()
export class TokenAuthService {
  private readonly logger = new Logger('TokenAuth');
  private readonly cache = new LRUCache<string, CacheEntry>({ max: CACHE_MAX });
  private readonly marks = new Map<string, number>();
  /** Tokens whose last use was written, or whose use after expiry was audited, within the minute. */
  private readonly touched = new LRUCache<number, true>({ max: CACHE_MAX, ttl: NOTE_EVERY_MS });
  private readonly expiredSeen = new LRUCache<number, true>({ max: CACHE_MAX, ttl: NOTE_EVERY_MS });
  /** Simultaneous first uses of one token share one check. */
  private readonly firstUses: SharedChecks<AuthUser>;
  private generation = 0;
  private sequence = 0;

  constructor(
    private readonly tokens: AccessTokensRepository,
    private readonly throttle: FailureThrottle,
    private readonly notices: AuthNotices,
    private readonly clock: Clock,
  ) {
    this.firstUses = new SharedChecks(throttle);
    notices.subscribe({
      user: (id) => this.untrustUser(id),
      token: (id) => this.untrustToken(id),
      throttled: (key, resetAt) => this.mark(key, resetAt),
      resumed: () => {
        this.generation++;
        this.sequence++;
      },
    });
  }

  async authenticate(token: string, address: string): Promise<AuthUser> {
    const hash = tokenHash(token);
    const cacheKey = hash.toString('base64');
    const hit = this.cache.get(cacheKey);
    if (hit) {
      if (hit.expiresAt <= this.clock.now().getTime()) {
        this.expiredUse(hit.tokenId, hit.user.id);
        throw expired();
      }
      if (this.trusted(hit, address)) {
        this.used(hit.tokenId);
        return hit.user;
      }
      return this.confirm(cacheKey, hash, hit, address);
    }
    return this.firstUses.run(
      cacheKey,
      TOKEN_PSEUDO_NAME,
      address,
      () => this.signIn(cacheKey, token, hash, address),
      (wait) => this.throttled(address, wait),
    );
  }

  /** The attempt is counted before the lookup and given back when the token was right. */
  private async signIn(cacheKey: string, token: string, hash: Buffer, address: string): Promise<AuthUser> {
    const wait = await this.throttle.reserve(TOKEN_PSEUDO_NAME, address);
    if (wait > 0) throw this.throttled(address, wait);
    // A token with a wrong checksum was never issued: no lookup needed.
    const before = this.snapshot();
    const row = hasValidChecksum(token) ? (await this.check(hash, address)).token : null;
    if (!row || row.revoked || row.disabled) {
      this.mark(this.pairKey(address), Date.now() + this.throttle.windowMs);
      throw invalid();
    }
    await this.throttle.refund(TOKEN_PSEUDO_NAME, address);
    if (row.expiresAt.getTime() <= this.clock.now().getTime()) {
      this.expiredUse(row.id, row.userId);
      throw expired();
    }
    const user = toAuthUser(row);
    this.cache.set(cacheKey, {
      user,
      tokenId: row.id,
      expiresAt: row.expiresAt.getTime(),
      trustedAt: this.trustFrom(before),
    });
    this.used(row.id);
    return user;
  }

  /** A cached token, if its row and its user's still say what it was verified against. */
  private async confirm(cacheKey: string, hash: Buffer, hit: CacheEntry, address: string): Promise<AuthUser> {
    const before = this.snapshot();
    const { wait, token: row } = await this.check(hash, address);
    if (wait > 0) throw this.throttled(address, wait);
    if (!row || row.revoked || row.disabled) {
      if (this.cache.peek(cacheKey) === hit) this.cache.delete(cacheKey);
      throw invalid();
    }
    hit.user = toAuthUser(row);
    hit.expiresAt = row.expiresAt.getTime();
    if (hit.expiresAt <= this.clock.now().getTime()) {
      this.expiredUse(row.id, row.userId);
      throw expired();
    }
    hit.trustedAt = this.trustFrom(before);
    this.used(row.id);
    return hit.user;
  }

  private check(hash: Buffer, address: string): Promise<TokenCheck> {
    return this.tokens.check(hash, keys(TOKEN_PSEUDO_NAME, address), this.throttle.limits);
  }

  /** last_used_at, written at most once a minute per token and instance, off the request's path. */
  private used(tokenId: number): void {
    if (this.touched.has(tokenId)) return;
    this.touched.set(tokenId, true);
    this.tokens.touch(tokenId).catch((e: unknown) => this.logger.warn(`cannot note a token's use: ${String(e)}`));
  }

  /** The audit event of a use after expiry, at most once a minute per token and instance. */
  private expiredUse(tokenId: number, userId: number): void {
    if (this.expiredSeen.has(tokenId)) return;
    this.expiredSeen.set(tokenId, true);
    this.tokens
      .audit(tokenEvent(userId, 'expired', { id: tokenId, userId }, {}))
      .catch((e: unknown) => this.logger.warn(`cannot record the use of an expired token: ${String(e)}`));
  }

  /** The user's cached tokens are confirmed at their next use. */
  untrustUser(id: number): void {
    this.untrust((e) => e.user.id === id);
  }

  /** The token is confirmed at its next use (revoked or changed here: the notice tells the others). */
  untrustToken(id: number): void {
    this.untrust((e) => e.tokenId === id);
  }

  private untrust(match: (e: CacheEntry) => boolean): void {
    this.sequence++;
    for (const entry of this.cache.values()) if (match(entry)) entry.trustedAt = UNTRUSTED;
  }

  private trusted(hit: CacheEntry, address: string): boolean {
    if (!this.notices.live || hit.trustedAt !== this.generation) return false;
    if (this.marks.size === 0) return true;
    const now = Date.now();
    if (this.marks.size >= MARKS_MAX) this.pruneMarks(now);
    if (this.marks.size >= MARKS_MAX) return false;
    const k = keys(TOKEN_PSEUDO_NAME, address);
    return !this.marked(k.pair.toString('hex'), now) && !this.marked(k.address.toString('hex'), now);
  }

  private pairKey(address: string): string {
    return keys(TOKEN_PSEUDO_NAME, address).pair.toString('hex');
  }

  private marked(key: string, now: number): boolean {
    const until = this.marks.get(key);
    if (until === undefined) return false;
    if (until > now) return true;
    this.marks.delete(key);
    return false;
  }

  private mark(key: string, until: number): void {
    if (this.marks.size >= MARKS_MAX) this.pruneMarks(Date.now());
    this.marks.set(key, Math.max(until, this.marks.get(key) ?? 0));
  }

  private pruneMarks(now: number): void {
    for (const [key, until] of this.marks) if (until <= now) this.marks.delete(key);
  }

  private throttled(address: string, wait: number): HttpErrorWithHeaders {
    this.mark(this.pairKey(address), Date.now() + wait * 1000);
    return new HttpErrorWithHeaders(429, `too many failed sign-ins; retry after ${wait} s`, {
      'Retry-After': String(wait),
    });
  }

  private snapshot(): { sequence: number; generation: number; live: boolean } {
    return { sequence: this.sequence, generation: this.generation, live: this.notices.live };
  }

  private trustFrom(s: { sequence: number; generation: number; live: boolean }): number {
    return s.live && this.notices.live && s.sequence === this.sequence ? s.generation : UNTRUSTED;
  }

  /** Drops cached tokens (tests; an import of users). */
  clearCache(): void {
    this.sequence++;
    this.cache.clear();
  }
}

function toAuthUser(row: Row): AuthUser {
  const scopes = row.scopes as TokenScope[];
  return {
    id: row.userId,
    name: row.userName,
    // A token without the admin scope never has an administrator's rights, nor one of a user who lost them.
    admin: row.admin && scopes.includes('admin'),
    fullName: row.fullName,
    email: row.email,
    via: 'token',
    tokenId: row.id,
    scopes,
  };
}

export const BEARER_CHALLENGE = 'Bearer realm="pdm"';

/** A 401 for a bearer credential, with the schemes a client may use. */
export function bearerUnauthorized(message: string): HttpErrorWithHeaders {
  return new HttpErrorWithHeaders(401, message, {
    'WWW-Authenticate': `Basic realm="pdm", charset="UTF-8", ${BEARER_CHALLENGE}`,
  });
}

function invalid(): HttpErrorWithHeaders {
  return bearerUnauthorized('the personal access token is not valid (unknown or revoked, or its user is disabled)');
}

function expired(): HttpErrorWithHeaders {
  return bearerUnauthorized('the personal access token has expired: create a new one');
}
