import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes: `scrypt$<N>$<r>$<p>$<salt base64>$<key base64>` with a 16-byte salt and a
 * 32-byte key, so every comparison is of two fixed-length buffers (constant time).
 */
const N = 16384;
const R = 8;
const P = 1;
const KEY_LEN = 32;
const SALT_LEN = 16;

function scrypt(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFC'), salt, KEY_LEN, { ...opts, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LEN);
  const key = await scrypt(password, salt, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64');
  const key = Buffer.from(parts[5], 'base64');
  if (![n, r, p].every(Number.isSafeInteger) || key.length !== KEY_LEN || salt.length === 0) return null;
  return { N: n, r, p, salt, key };
}

/** A well-formed hash nobody's password matches, verified for unknown users to keep timing flat. */
const DUMMY_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(SALT_LEN).toString('base64')}$${Buffer.alloc(KEY_LEN).toString('base64')}`;

/**
 * The password hash of users who sign in only through an identity provider (OpenID Connect): it
 * is no scrypt hash, so no password verifies against it, until an administrator sets one.
 */
export const NO_PASSWORD_HASH = '!external';

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const own = stored === null ? null : parseHash(stored);
  const parsed = own ?? parseHash(DUMMY_HASH)!;
  const key = await scrypt(password, parsed.salt, { N: parsed.N, r: parsed.r, p: parsed.p });
  return timingSafeEqual(key, parsed.key) && own !== null;
}
