import { HttpErrorWithHeaders } from '../../common/http-errors.js';

/** Seconds a client is asked to wait when the identity provider cannot be reached. */
const UNAVAILABLE_RETRY_S = 5;

/**
 * The 401 of a bearer token that was refused (RFC 6750): the challenge names the error and the
 * envelope's message says what was wrong.
 */
export function invalidToken(description: string): HttpErrorWithHeaders {
  return new HttpErrorWithHeaders(401, description, {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${headerSafe(description)}"`,
  });
}

/** The 503 of a token that could not be checked because its issuer did not answer as it should. */
export function providerUnavailable(description: string): HttpErrorWithHeaders {
  return new HttpErrorWithHeaders(503, description, { 'Retry-After': String(UNAVAILABLE_RETRY_S) });
}

export function tooManyFailures(wait: number): HttpErrorWithHeaders {
  return new HttpErrorWithHeaders(429, `too many failed sign-ins; retry after ${wait} s`, {
    'Retry-After': String(wait),
  });
}

export function isProviderUnavailable(e: unknown): boolean {
  return e instanceof HttpErrorWithHeaders && e.getStatus() === 503;
}

/** A quoted-string of printable ASCII without quotes or backslashes, as error_description allows. */
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]|["\\]/g, "'").slice(0, 300);
}

/** Text from a token shown in a message, bounded (it is the caller's, not ours). */
export function shown(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}…` : value;
}
