import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { decodeJwt, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import { Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { AuthUser } from '../auth-user.js';
import { AuthNotices } from '../auth-notices.js';
import { SharedChecks } from '../shared-checks.js';
import { FailureThrottle } from '../failure-throttle.js';
import type { UserRecord } from '../users.repository.js';
import { UsersRepository } from '../users.repository.js';
import { invalidToken, isProviderUnavailable, shown, tooManyFailures } from './oidc-errors.js';
import { OidcGroups } from './oidc-groups.js';
import { OidcIssuer } from './oidc-issuer.js';
import { OidcUsers } from './oidc-users.js';

/** Verified tokens remembered at most; the least recently used go first. */
const CACHE_MAX = 10_000;

interface Verified {
  user: AuthUser;
  /** The token's exp plus the clock skew allowed, in ms (as far as it is accepted): not used from then on. */
  expiresAt: number;
  /** Read while notices were received and none came for the user meanwhile: used without a statement. */
  trusted: boolean;
}

/**
 * Signs in callers with an OpenID Connect access token (`Authorization: Bearer <JWT>`) of one of
 * the configured issuers (docs/oidc.md). The issuer is chosen by the token's `iss`; the token is
 * verified against that issuer's keys (OidcIssuer); its user claim names the user (OidcUsers);
 * its groups claim, when the issuer has one, is handed on (OidcGroups).
 *
 * A verified token is remembered under its hash until it expires, so the next requests with it
 * cost no signature check. While AuthNotices listens, a change of the user's row (disabled,
 * renamed, deleted) drops the user's tokens at once; otherwise each remembered token is confirmed
 * against the user's row per request.
 *
 * Every refused token counts as a failed sign-in of its client address (FailureThrottle, as
 * passwords do), so a flood of bad tokens is answered 429 before it costs any work.
 */
@Injectable()
export class OidcAuth {
  readonly enabled: boolean;
  private readonly issuers: Map<string, OidcIssuer>;
  private readonly cache = new LRUCache<string, Verified>({ max: CACHE_MAX });
  /** Simultaneous first uses of one token share one verification. */
  private readonly firstUses: SharedChecks<AuthUser>;
  /** Counts notices and (re)starts of listening: an entry read while one came is not trusted. */
  private sequence = 0;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly users: UsersRepository,
    private readonly oidcUsers: OidcUsers,
    private readonly groups: OidcGroups,
    private readonly throttle: FailureThrottle,
    private readonly notices: AuthNotices,
    private readonly clock: Clock,
  ) {
    this.firstUses = new SharedChecks(throttle);
    const options = { jwksCooldownMs: config.oidcJwksCooldownMs };
    this.issuers = new Map(config.oidcIssuers.map((c) => [c.issuer, new OidcIssuer(c, options)]));
    this.enabled = this.issuers.size > 0;
    notices.subscribe({
      user: (id) => this.forgetUser(id),
      throttled: () => undefined,
      resumed: () => {
        this.sequence++;
        this.cache.clear();
      },
    });
  }

  /** The user the token names, or a 401 saying what is wrong with it (429 while throttled, 503 when its issuer cannot be asked). */
  async authenticate(jwt: string, address: string): Promise<AuthUser> {
    if (!this.enabled) {
      throw invalidToken(
        'no identity provider is configured here (OIDC_ISSUER): only personal access tokens are accepted as Bearer credentials',
      );
    }
    const key = createHash('sha256').update(jwt).digest('base64');
    const hit = this.cache.get(key);
    if (hit && hit.expiresAt > this.clock.now().getTime()) {
      if (hit.trusted && this.notices.live) return hit.user;
      return this.confirm(key, hit);
    }
    if (hit) this.cache.delete(key);
    const claims = unverifiedClaims(jwt);
    const iss = typeof claims?.iss === 'string' ? claims.iss : '';
    const issuer = this.issuers.get(iss);
    // Failures are counted per (issuer and user the token claims, address) and per address.
    const subject = issuer ? claims?.[issuer.config.userClaim] : undefined;
    const throttleName = `\u0000oidc\u0000${iss}\u0000${typeof subject === 'string' ? subject : ''}`;
    return this.firstUses.run(
      key,
      throttleName,
      address,
      () => this.signIn(key, jwt, address, { claims, iss, issuer, throttleName }),
      tooManyFailures,
    );
  }

  private async signIn(
    key: string,
    jwt: string,
    address: string,
    { claims, iss, issuer, throttleName }: Claimed,
  ): Promise<AuthUser> {
    const wait = await this.throttle.reserve(throttleName, address);
    if (wait > 0) throw tooManyFailures(wait);
    const before = { sequence: this.sequence, live: this.notices.live };
    let user: AuthUser;
    let payload: JWTPayload;
    try {
      if (!claims) throw invalidToken('the token is malformed: its claims are not base64url-encoded JSON');
      if (!issuer) throw invalidToken(`the token's issuer "${shown(iss)}" is not one this service accepts`);
      payload = await issuer.verify(jwt, this.clock.now());
      user = toAuthUser(await this.oidcUsers.resolve(issuer.config, payload));
      await this.groups.update(user.id, issuer.config, payload);
    } catch (e) {
      // An issuer that cannot be asked is not the caller's failure.
      if (isProviderUnavailable(e)) await this.throttle.refund(throttleName, address);
      throw e;
    }
    await this.throttle.refund(throttleName, address);
    const trusted = before.live && this.notices.live && before.sequence === this.sequence;
    const expiresAt = ((payload.exp ?? 0) + issuer.config.clockSkewS) * 1000;
    this.cache.set(key, { user, expiresAt, trusted });
    return user;
  }

  /** A remembered token, if the user's row still allows it (AuthNotices not listening). */
  private async confirm(key: string, hit: Verified): Promise<AuthUser> {
    const row = await this.users.findById(hit.user.id);
    if (!row || row.disabled || row.name !== hit.user.name) {
      if (this.cache.peek(key) === hit) this.cache.delete(key);
      throw invalidToken(
        row?.disabled ? `user ${hit.user.name} is disabled here` : 'the user this token names is gone',
      );
    }
    if (row.admin !== hit.user.admin || row.fullName !== hit.user.fullName || row.email !== hit.user.email) {
      hit.user = toAuthUser(row);
    }
    return hit.user;
  }

  /** The user's row changed: their tokens are checked in full at their next use. */
  forgetUser(id: number): void {
    this.sequence++;
    for (const [key, entry] of this.cache.entries()) if (entry.user.id === id) this.cache.delete(key);
    this.groups.forgetUser(id);
  }
}

/** The token's claims before verification (null: not a JWT), to choose its issuer and throttle key. */
/** What a token says of itself before it is verified: enough to count its attempt. */
interface Claimed {
  claims: JWTPayload | null;
  iss: string;
  issuer: OidcIssuer | undefined;
  throttleName: string;
}

function unverifiedClaims(jwt: string): JWTPayload | null {
  try {
    return decodeJwt(jwt);
  } catch {
    return null;
  }
}

function toAuthUser(record: UserRecord): AuthUser {
  return {
    id: record.id,
    name: record.name,
    admin: record.admin,
    fullName: record.fullName,
    email: record.email,
    via: 'oidc',
  };
}
