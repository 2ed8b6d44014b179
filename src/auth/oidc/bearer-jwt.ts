/** Personal access tokens start with this; every other bearer token that looks like a JWT is one. */
export const PERSONAL_TOKEN_PREFIX = 'pdm_pat_';

/** A JWS in compact form: three base64url parts (the signature may be empty, as with `alg: none`). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const BEARER = /^Bearer +(\S+) *$/i;

/**
 * The JWT of an `Authorization: Bearer <JWT>` header, or undefined for any other header
 * (Basic, a personal access token, a bearer token that is no JWT).
 */
export function bearerJwt(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const token = BEARER.exec(header)?.[1];
  if (!token || token.startsWith(PERSONAL_TOKEN_PREFIX) || !COMPACT_JWS.test(token)) return undefined;
  return token;
}
