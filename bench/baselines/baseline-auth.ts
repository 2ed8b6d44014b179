/**
 * The HTTP Basic check every baseline does, mirroring src/auth/auth.service.ts so both sides of
 * a benchmark pay the same for authentication: parse the header with the service's
 * parseBasicAuth, look the user up (the columns of UsersRepository.findByName), verifyPassword,
 * cache the success under the SHA-256 of name and password for AUTH_CACHE_TTL_MS; simultaneous
 * first requests share one verification, and an entry in use is re-verified in the background
 * in the last quarter of its lifetime. Like the service, which must refuse a changed password or
 * a disabled user at once on every instance, a cached check is confirmed on every request against
 * the user's row (one prepared primary-key read; the service's statement also reads the shared
 * failure counts, left out here as they never act on a benchmark's load).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { parseBasicAuth, type BasicCredentials } from '../../src/auth/basic-credentials.js';
import { verifyPassword } from '../../src/auth/password.js';

export interface BaselineUser {
  id: number;
  name: string;
  admin: boolean;
  fullName: string | null;
  email: string | null;
}

interface UserRow {
  id: number;
  name: string;
  password_hash: string;
  admin: boolean;
  full_name: string | null;
  email: string | null;
  disabled: boolean;
}

/** The service's default (src/config/app-config.ts), unless the runner passes another. */
export const BASELINE_AUTH_TTL_MS = Number(process.env.AUTH_CACHE_TTL_MS ?? 60_000);

/** Returns authenticate(header): the caller, or null for every kind of failure (a 401). */
export function createBaselineAuth(
  pool: pg.Pool,
  ttlMs = BASELINE_AUTH_TTL_MS,
): (header: string | undefined) => BaselineUser | null | Promise<BaselineUser | null> {
  const cache = new Map<string, { user: BaselineUser; hash: string; expiresAt: number }>();
  const inflight = new Map<string, Promise<BaselineUser | null>>();

  async function verify(key: string, creds: BasicCredentials): Promise<BaselineUser | null> {
    const r = await pool.query<UserRow>(
      'SELECT id, name, password_hash, admin, full_name, email, disabled FROM users WHERE name = $1',
      [creds.name],
    );
    const row = r.rows[0];
    const ok = await verifyPassword(creds.password, row?.password_hash ?? null);
    if (!ok || !row || row.disabled) {
      cache.delete(key);
      return null;
    }
    const user = { id: row.id, name: row.name, admin: row.admin, fullName: row.full_name, email: row.email };
    if (ttlMs > 0) {
      if (cache.size > 10_000) cache.clear();
      cache.set(key, { user, hash: row.password_hash, expiresAt: Date.now() + ttlMs });
    }
    return user;
  }

  function verifyOnce(key: string, creds: BasicCredentials): Promise<BaselineUser | null> {
    let pending = inflight.get(key);
    if (!pending) {
      pending = verify(key, creds).finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  }

  async function confirm(key: string, creds: BasicCredentials, hit: { user: BaselineUser; hash: string }) {
    const r = await pool.query<{ password_hash: string; disabled: boolean }>({
      name: 'baseline-auth-confirm',
      text: 'SELECT password_hash, disabled FROM users WHERE id = $1',
      values: [hit.user.id],
    });
    const row = r.rows[0];
    if (row && !row.disabled && row.password_hash === hit.hash) return hit.user;
    cache.delete(key);
    return verifyOnce(key, creds);
  }

  return (header) => {
    const creds = parseBasicAuth(header);
    if (!creds) return null;
    const key = createHash('sha256').update(creds.name).update('\u0000').update(creds.password).digest('base64');
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && hit.expiresAt > now) {
      if (hit.expiresAt - now < ttlMs / 4) void verifyOnce(key, creds).catch(() => undefined);
      return confirm(key, creds, hit);
    }
    return verifyOnce(key, creds);
  };
}
