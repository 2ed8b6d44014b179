import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { HttpErrorWithHeaders } from '../common/http-errors.js';
import type { AuthUser } from './auth-user.js';
import { parseBasicAuth, type BasicCredentials } from './basic-credentials.js';
import { FailureThrottle } from './failure-throttle.js';
import { verifyPassword } from './password.js';
import { UsersRepository } from './users.repository.js';

export const AUTH_CHALLENGE = 'Basic realm="pdm", charset="UTF-8"';
const UNAUTHORIZED_MESSAGE = 'valid credentials are required (HTTP Basic)';

/**
 * Verifies HTTP Basic credentials. Every failure (missing, malformed, unknown user, wrong
 * password, disabled user) is the same 401. Successful verifications are cached for
 * AUTH_CACHE_TTL_MS under a hash of name and password, so scrypt is paid once per caller
 * and period, not per request; simultaneous first requests share one verification, and an
 * entry in use is re-verified in the background before it expires.
 */
@Injectable()
export class AuthService {
  private readonly cache = new Map<string, { user: AuthUser; expiresAt: number }>();
  private readonly inflight = new Map<string, Promise<AuthUser | null>>();
  private readonly throttle: FailureThrottle;

  constructor(
    private readonly users: UsersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.throttle = new FailureThrottle(config.authFailureLimit, config.authFailureWindowMs);
  }

  /**
   * The caller, or a 401 (429 while throttled). A caller whose credentials are cached is answered
   * synchronously (this runs on every request); otherwise the answer is a promise.
   *
   * A throttled (user, address) gets the 429 whatever the password, cached or not: if the right
   * password still passed, the 429s for wrong ones would tell a guesser when they found it.
   */
  authenticate(header: string | undefined, address: string): AuthUser | Promise<AuthUser> {
    const creds = parseBasicAuth(header);
    if (!creds) throw unauthorized();

    const wait = this.throttle.retryAfter(creds.name, address);
    if (wait > 0) throw tooManyFailures(wait);
    const cacheKey = createHash('sha256').update(creds.name).update('\u0000').update(creds.password).digest('base64');
    const now = Date.now();
    const hit = this.cache.get(cacheKey);
    if (hit && hit.expiresAt > now) {
      // Re-verify in the background shortly before expiry, so busy callers never wait for scrypt.
      if (hit.expiresAt - now < this.config.authCacheTtlMs / 4)
        void this.verifyOnce(cacheKey, creds).catch(() => undefined);
      return hit.user;
    }
    return this.signIn(cacheKey, creds, address);
  }

  /**
   * The attempt is counted before the password is checked and given back when it was right, so a
   * burst of parallel guesses gets no more tries than the limit. A caller sending the same
   * credentials as a check already under way shares its answer without being counted again.
   */
  private async signIn(cacheKey: string, creds: BasicCredentials, address: string): Promise<AuthUser> {
    const pending = this.inflight.get(cacheKey);
    if (pending) {
      const shared = await pending;
      if (!shared) throw unauthorized();
      return shared;
    }
    const wait = this.throttle.reserve(creds.name, address);
    if (wait > 0) throw tooManyFailures(wait);
    const user = await this.verifyOnce(cacheKey, creds);
    if (!user) throw unauthorized();
    this.throttle.refund(creds.name, address);
    return user;
  }

  /** One password verification per credentials at a time: simultaneous callers share it. */
  private verifyOnce(cacheKey: string, creds: BasicCredentials): Promise<AuthUser | null> {
    let pending = this.inflight.get(cacheKey);
    if (!pending) {
      pending = this.verify(cacheKey, creds).finally(() => this.inflight.delete(cacheKey));
      this.inflight.set(cacheKey, pending);
    }
    return pending;
  }

  private async verify(cacheKey: string, creds: BasicCredentials): Promise<AuthUser | null> {
    const record = await this.users.findByName(creds.name);
    const ok = await verifyPassword(creds.password, record?.passwordHash ?? null);
    if (!ok || !record || record.disabled) {
      this.cache.delete(cacheKey);
      return null;
    }
    const user: AuthUser = {
      id: record.id,
      name: record.name,
      admin: record.admin,
      fullName: record.fullName,
      email: record.email,
    };
    if (this.config.authCacheTtlMs > 0) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(cacheKey, { user, expiresAt: Date.now() + this.config.authCacheTtlMs });
    }
    return user;
  }

  /** Drops cached verifications, e.g. after users were changed by an import. */
  clearCache(): void {
    this.cache.clear();
  }
}

function tooManyFailures(wait: number): HttpErrorWithHeaders {
  return new HttpErrorWithHeaders(429, `too many failed sign-ins; retry after ${wait} s`, {
    'Retry-After': String(wait),
  });
}

export function unauthorized(): HttpErrorWithHeaders {
  return new HttpErrorWithHeaders(401, UNAUTHORIZED_MESSAGE, { 'WWW-Authenticate': AUTH_CHALLENGE });
}
