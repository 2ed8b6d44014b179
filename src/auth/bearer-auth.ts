import { Injectable } from '@nestjs/common';
import type { AuthUser } from './auth-user.js';
import { looksLikeJwt } from './oidc/jwt-shape.js';
import { OidcAuth } from './oidc/oidc-auth.js';
import { bearerUnauthorized, TokenAuthService } from './tokens/token-auth.service.js';
import { looksLikeToken } from './tokens/token-format.js';

/** `Bearer <credential>` (any casing of the scheme, one or more spaces): the credential, else null. */
export function parseBearer(header: string | undefined): string | null {
  const m = header === undefined ? null : /^bearer +(\S+) *$/i.exec(header);
  return m ? m[1] : null;
}

/** Whether the header names the Bearer scheme (even with a malformed credential). */
export function isBearer(header: string | undefined): boolean {
  return header !== undefined && /^bearer(\s|$)/i.test(header);
}

/**
 * `Authorization: Bearer …`, dispatched by the credential's kind: a personal access token
 * (`pdm_pat_…`) to TokenAuthService, a JWT to the OpenID Connect verifier (OidcAuth); anything
 * else is refused.
 */
@Injectable()
export class BearerAuth {
  constructor(
    private readonly tokens: TokenAuthService,
    private readonly oidc: OidcAuth,
  ) {}

  authenticate(header: string, address: string): Promise<AuthUser> {
    const credential = parseBearer(header);
    if (credential === null) throw bearerUnauthorized('a Bearer credential is required after the scheme');
    if (looksLikeToken(credential)) return this.tokens.authenticate(credential, address);
    if (looksLikeJwt(credential)) return this.oidc.authenticate(credential, address);
    throw bearerUnauthorized(
      'a Bearer credential must be a personal access token (pdm_pat_…) or a JWT of a configured identity provider',
    );
  }

  /** The user's cached bearer sign-ins are confirmed at their next use (their row changed here). */
  untrustUser(id: number): void {
    this.tokens.untrustUser(id);
    this.oidc.forgetUser(id);
  }
}
