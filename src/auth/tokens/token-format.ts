import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Personal access tokens: `pdm_pat_` + 43 base62 characters of randomness (over 256 bits) + 6
 * base62 characters of the CRC32 of everything before them. The prefix lets secret scanners find
 * leaked tokens and the checksum lets them tell a real candidate from random text offline, as
 * GitHub's tokens do. Scanners match
 *
 *     \bpdm_pat_[0-9A-Za-z]{49}\b
 *
 * (TOKEN_PATTERN) and check the last 6 characters (hasValidChecksum). Only a SHA-256 of the whole
 * token is stored: 256 random bits need no slow hash.
 */
export const TOKEN_PREFIX = 'pdm_pat_';
const RANDOM_CHARS = 43;
const CHECKSUM_CHARS = 6;
export const TOKEN_LENGTH = TOKEN_PREFIX.length + RANDOM_CHARS + CHECKSUM_CHARS;
export const TOKEN_PATTERN = /\bpdm_pat_[0-9A-Za-z]{49}\b/;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new token. Base62 characters drawn without bias (bytes of 248 and more are skipped). */
export function newToken(): string {
  let random = '';
  while (random.length < RANDOM_CHARS) {
    for (const b of randomBytes(64)) {
      if (b < 248 && random.length < RANDOM_CHARS) random += BASE62[b % 62];
    }
  }
  const body = TOKEN_PREFIX + random;
  return body + checksum(body);
}

/** The CRC32 of `body` in 6 base62 characters (62^6 > 2^32), zero-padded. */
export function checksum(body: string): string {
  let n = crc32(Buffer.from(body, 'utf8'));
  let out = '';
  for (let i = 0; i < CHECKSUM_CHARS; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** Whether the text has a token's shape and its checksum is right (no database needed). */
export function hasValidChecksum(token: string): boolean {
  if (token.length !== TOKEN_LENGTH || !token.startsWith(TOKEN_PREFIX)) return false;
  if (!/^[0-9A-Za-z]+$/.test(token.slice(TOKEN_PREFIX.length))) return false;
  const body = token.slice(0, -CHECKSUM_CHARS);
  return checksum(body) === token.slice(-CHECKSUM_CHARS);
}

/** Whether a bearer credential claims to be a personal access token (by its prefix). */
export function looksLikeToken(credential: string): boolean {
  return credential.startsWith(TOKEN_PREFIX);
}

/** What is stored and looked up: SHA-256 of the whole token. */
export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** The last characters, shown in lists to tell tokens apart. */
export function tokenHint(token: string): string {
  return token.slice(-4);
}
