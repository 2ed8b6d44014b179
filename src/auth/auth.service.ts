import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { Clock } from '../common/clock.js';
import { HttpErrorWithHeaders } from '../common/http-errors.js';
import type { AuthUser } from './auth-user.js';
import { parseBasicAuth, type BasicCredentials } from './basic-credentials.js';
import { AuthNotices } from './auth-notices.js';
import { FailureThrottle, keys } from './failure-throttle.js';
import { bearerJwt } from './oidc/bearer-jwt.js';
import { OidcAuth } from './oidc/oidc-auth.js';
import { verifyPassword } from './password.js';
import { UsersRepository, type UserRecord } from './users.repository.js';

export const AUTH_CHALLENGE = 'Basic realm="pdm", charset="UTF-8"';
const UNAUTHORIZED_MESSAGE = 'valid credentials are required (HTTP Basic)';

/** A verification's outcome: the user, null for refused, undefined when it was not made (throttled). */
type Verdict = AuthUser | null | undefined;

/** Callers whose verifications are remembered at most; the least recently seen go first. */
const CACHE_MAX = 10_000;
/** Failure keys remembered at most; past it every cached sign-in is confirmed until some expire. */
const MARKS_MAX = 100_000;
/** An entry's trustedAt when it must be confirmed at its next use. */
const UNTRUSTED = -1;

/**
 * Verifies HTTP Basic credentials. Every failure (missing, malformed, unknown user, wrong
 * password, disabled user) is the same 401. Successful verifications are cached for
 * AUTH_CACHE_TTL_MS under a hash of name and password, so scrypt is paid once per caller
 * and period, not per request; simultaneous first requests share one verification, and an
 * entry in use is re-verified in the background before it expires.
 *
 * A cached verification holds only while the user's row says what it was verified against (the
 * password hash, the name, not disabled) and its (user, address) is not throttled. Two ways to
 * know it, chosen per request:
 * - While AuthNotices listens, the database tells every instance when a user row changes (the
 *   admin API, an import, plain SQL) or a failure count reaches its limit: a trusted entry is used
 *   as it is, with no statement, on a connection that has already been answered for these
 *   credentials from this address; a notice makes the user's entries untrusted.
 * - Otherwise, on any other connection, and for an untrusted entry, or a (user, address) with
 *   recent failures, the entry is confirmed in one prepared statement against the user's row as
 *   it is now and the shared failure counts (FailureThrottle.confirm): when the row changed it is
 *   dropped and the password checked again; the admin flag and contact data are taken from the
 *   row; a throttled pair gets its 429. A confirmed entry is trusted again if no notice came while it was read.
 * So a changed password, a disabled user or a removed admin flag holds at the next request on this
 * instance when it was changed through it, and on every other instance sharing the database as
 * soon as the notice arrives (a few milliseconds), or at the next request when they do not listen.
 *
 * Why the connection: a guesser's connections never signed in with the right password, so a guess
 * that happens to be right reads the shared counts in the database like every other guess, and
 * once they are at the limit (committed by any instance) it gets the same 429, notice or not.
 * Without that, a right guess answered from the cache while the notice of the limit was on its way
 * was a 200 among 429s. Only the party that already holds the password skips the statement.
 */
@Injectable()
export class AuthService {
  /** Successful verifications for AUTH_CACHE_TTL_MS (none are kept when it is 0). */
  private readonly cache: LRUCache<string, CacheEntry>;
  private readonly inflight = new Map<string, Promise<Verdict>>();
  /** Failure keys (hex) with recent failures or at their limit: cached sign-ins there are confirmed. */
  private readonly marks = new Map<string, number>();
  /** Counts (re)starts of listening: entries trusted before one are not trusted after it. */
  private generation = 0;
  /** Counts notices and (re)starts: an entry read while one came is not trusted. */
  private sequence = 0;
  /**
   * Per client connection, the credentials (cache key) and address it was last answered for: a
   * trusted entry is used without a statement only on such a connection. Weak: it goes with the
   * socket.
   */
  private readonly signedIn = new WeakMap<object, string>();

  constructor(
    private readonly users: UsersRepository,
    private readonly throttle: FailureThrottle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly notices: AuthNotices,
    clock: Clock,
    private readonly oidc: OidcAuth,
  ) {
    this.cache = new LRUCache({
      max: CACHE_MAX,
      ttl: config.authCacheTtlMs || undefined,
      perf: { now: () => clock.now().getTime() },
    });
    notices.subscribe({
      user: (id) => this.untrustUser(id),
      throttled: (key, resetAt) => this.mark(key, resetAt),
      resumed: () => {
        this.generation++;
        this.sequence++;
      },
    });
  }

  /**
   * The caller, or a 401 (429 while throttled).
   *
   * A throttled (user, address) gets the 429 whatever the password, cached or not: if the right
   * password still passed, the 429s for wrong ones would tell a guesser when they found it.
   * `connection` is the client's connection (the request's socket): see the class comment.
   */
  authenticate(header: string | undefined, address: string, connection?: object): Promise<AuthUser> {
    // `Bearer <JWT>` (not a personal access token): an identity provider's access token.
    const jwt = bearerJwt(header);
    if (jwt !== undefined) return this.oidc.authenticate(jwt, address);
    const creds = parseBasicAuth(header);
    if (!creds) throw unauthorized();

    const cacheKey = createHash('sha256').update(creds.name).update('\u0000').update(creds.password).digest('base64');
    const proof = `${cacheKey}\u0000${address}`;
    const hit = this.cache.get(cacheKey);
    if (hit) {
      // Re-verify in the background shortly before expiry, so busy callers never wait for scrypt.
      if (this.cache.getRemainingTTL(cacheKey) < this.config.authCacheTtlMs / 4)
        void this.verifyOnce(cacheKey, creds).catch(() => undefined);
      if (connection && this.signedIn.get(connection) === proof && this.trusted(hit, creds, address))
        return Promise.resolve(hit.user);
      return this.answered(connection, proof, this.confirm(cacheKey, hit, creds, address));
    }
    return this.answered(connection, proof, this.signIn(cacheKey, creds, address));
  }

  /** Remembers the connection a check succeeded on, for the next request on it. */
  private async answered(connection: object | undefined, proof: string, check: Promise<AuthUser>): Promise<AuthUser> {
    const user = await check;
    if (connection) this.signedIn.set(connection, proof);
    return user;
  }

  /** The user's cached sign-ins are confirmed at their next use, their tokens verified again (their row changed). */
  untrustUser(id: number): void {
    this.sequence++;
    for (const entry of this.cache.values()) if (entry.user.id === id) entry.trustedAt = UNTRUSTED;
    this.oidc.forgetUser(id);
  }

  private trusted(hit: CacheEntry, creds: BasicCredentials, address: string): boolean {
    if (!this.notices.live || hit.trustedAt !== this.generation) return false;
    if (this.marks.size === 0) return true;
    const now = Date.now();
    if (this.marks.size >= MARKS_MAX) this.pruneMarks(now);
    if (this.marks.size >= MARKS_MAX) return false;
    const k = keys(creds.name, address);
    return !this.marked(k.pair.toString('hex'), now) && !this.marked(k.address.toString('hex'), now);
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

  /**
   * The 429 of a throttled (user, address). The pair is marked until the wait is over, so cached
   * sign-ins there are confirmed from now on, even on connections that signed in with them,
   * without waiting for a failed check to finish or for the notice.
   */
  private throttled(creds: BasicCredentials, address: string, wait: number): HttpErrorWithHeaders {
    this.mark(keys(creds.name, address).pair.toString('hex'), Date.now() + wait * 1000);
    return tooManyFailures(wait);
  }

  /** What to stamp on an entry read now, to be settled by trustFrom() once the row is read. */
  private snapshot(): { sequence: number; generation: number; live: boolean } {
    return { sequence: this.sequence, generation: this.generation, live: this.notices.live };
  }

  private trustFrom(s: { sequence: number; generation: number; live: boolean }): number {
    return s.live && this.notices.live && s.sequence === this.sequence ? s.generation : UNTRUSTED;
  }

  /** A cached verification, if the user's row still says what it was verified against. */
  private async confirm(
    cacheKey: string,
    hit: CacheEntry,
    creds: BasicCredentials,
    address: string,
  ): Promise<AuthUser> {
    const before = this.snapshot();
    const { wait, row } = await this.throttle.confirm(creds.name, address, hit.user.id);
    if (wait > 0) throw this.throttled(creds, address, wait);
    if (!row || row.disabled || row.passwordHash !== hit.passwordHash || row.name !== hit.user.name) {
      if (this.cache.peek(cacheKey) === hit) this.cache.delete(cacheKey);
      return this.signIn(cacheKey, creds, address);
    }
    if (row.admin !== hit.user.admin || row.fullName !== hit.user.fullName || row.email !== hit.user.email) {
      hit.user = toAuthUser(row);
    }
    hit.trustedAt = this.trustFrom(before);
    return hit.user;
  }

  /**
   * The attempt is counted before the password is checked and given back when it was right, so a
   * burst of parallel guesses gets no more tries than the limit. A caller sending the same
   * credentials as a check already under way shares its answer without being counted again.
   */
  private async signIn(cacheKey: string, creds: BasicCredentials, address: string): Promise<AuthUser> {
    const pending = this.inflight.get(cacheKey);
    if (pending) return this.share(pending, cacheKey, creds, address);
    let wait = 0;
    const check = this.track(
      cacheKey,
      this.throttle.reserve(creds.name, address).then((w) => {
        wait = w;
        return w > 0 ? undefined : this.verify(cacheKey, creds);
      }),
    );
    const user = await check;
    if (wait > 0) throw this.throttled(creds, address, wait);
    if (!user) {
      // Until the window has passed, cached sign-ins of this (user, address) are confirmed, so
      // the 429 that follows more failures holds for the right password too, on this instance at
      // once. Other instances, and the address's own limit, learn it from the notice sent when a
      // count reaches its limit.
      this.mark(keys(creds.name, address).pair.toString('hex'), Date.now() + this.config.authFailureWindowMs);
      throw unauthorized();
    }
    await this.throttle.refund(creds.name, address);
    return user;
  }

  /** Waits for a check of the same credentials under way (after this caller's own throttle check). */
  private async share(
    pending: Promise<Verdict>,
    cacheKey: string,
    creds: BasicCredentials,
    address: string,
  ): Promise<AuthUser> {
    const wait = await this.throttle.retryAfter(creds.name, address);
    if (wait > 0) throw this.throttled(creds, address, wait);
    const verdict = await pending;
    // Its caller was throttled (at another address): no check was made, so make one.
    if (verdict === undefined) return this.signIn(cacheKey, creds, address);
    if (!verdict) throw unauthorized();
    return verdict;
  }

  /** One password verification per credentials at a time: simultaneous callers share it. */
  private verifyOnce(cacheKey: string, creds: BasicCredentials): Promise<Verdict> {
    return this.inflight.get(cacheKey) ?? this.track(cacheKey, this.verify(cacheKey, creds));
  }

  private track(cacheKey: string, check: Promise<Verdict>): Promise<Verdict> {
    const tracked = check.finally(() => this.inflight.delete(cacheKey));
    this.inflight.set(cacheKey, tracked);
    return tracked;
  }

  private async verify(cacheKey: string, creds: BasicCredentials): Promise<AuthUser | null> {
    const before = this.snapshot();
    const record = await this.users.findByName(creds.name);
    const ok = await verifyPassword(creds.password, record?.passwordHash ?? null);
    if (!ok || !record || record.disabled) {
      this.cache.delete(cacheKey);
      return null;
    }
    const user = toAuthUser(record);
    if (this.config.authCacheTtlMs > 0)
      this.cache.set(cacheKey, { user, passwordHash: record.passwordHash, trustedAt: this.trustFrom(before) });
    return user;
  }

  /** Drops cached verifications, e.g. after users were changed by an import. */
  clearCache(): void {
    this.sequence++;
    this.cache.clear();
  }
}

interface CacheEntry {
  user: AuthUser;
  /** The hash the password was verified against: the entry holds while the user's row has it. */
  passwordHash: string;
  /** The listening generation in which the entry was last read with no notice coming: else UNTRUSTED. */
  trustedAt: number;
}

function toAuthUser(record: UserRecord): AuthUser {
  return { id: record.id, name: record.name, admin: record.admin, fullName: record.fullName, email: record.email };
}

function tooManyFailures(wait: number): HttpErrorWithHeaders {
  return new HttpErrorWithHeaders(429, `too many failed sign-ins; retry after ${wait} s`, {
    'Retry-After': String(wait),
  });
}

export function unauthorized(): HttpErrorWithHeaders {
  return new HttpErrorWithHeaders(401, UNAUTHORIZED_MESSAGE, { 'WWW-Authenticate': AUTH_CHALLENGE });
}
