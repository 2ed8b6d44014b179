/**
 * Baseline of the `version` benchmark: a bare Express server doing exactly the service's work
 * for GET /files/version — the HTTP Basic check with the same cached verification (parse with
 * parseBasicAuth, look the user up once, verifyPassword, cache the success under the SHA-256 of
 * name and password as AuthService does) and the same JSON — without NestJS, Prisma, request
 * ids or body parsers. Started as its own process by the runner: PORT, HOST, DATABASE_URL.
 */
import { createHash } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import pg from 'pg';
import { parseBasicAuth } from '../../src/auth/basic-credentials.js';
import { verifyPassword } from '../../src/auth/password.js';
import { versionRecord } from '../../src/common/version.js';

// The service's defaults (src/config/app-config.ts), so both sides cache and pool alike.
const CACHE_TTL_MS = Number(process.env.AUTH_CACHE_TTL_MS ?? 60_000);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_MAX ?? 10) });
const cache = new Map<string, { userId: number; expiresAt: number }>();

interface UserRow {
  id: number;
  name: string;
  password_hash: string;
  admin: boolean;
  full_name: string | null;
  email: string | null;
  disabled: boolean;
}

async function authenticate(header: string | undefined): Promise<boolean> {
  const creds = parseBasicAuth(header);
  if (!creds) return false;
  const key = createHash('sha256').update(creds.name).update('\u0000').update(creds.password).digest('base64');
  const hit = cache.get(key);
  if (hit && hit.expiresAt > Date.now()) return true;
  // The same columns as the service's UsersRepository.findByName.
  const r = await pool.query<UserRow>(
    'SELECT id, name, password_hash, admin, full_name, email, disabled FROM users WHERE name = $1',
    [creds.name],
  );
  const row = r.rows[0];
  const ok = await verifyPassword(creds.password, row?.password_hash ?? null);
  if (!ok || !row || row.disabled) return false;
  if (CACHE_TTL_MS > 0) {
    if (cache.size > 10_000) cache.clear();
    cache.set(key, { userId: row.id, expiresAt: Date.now() + CACHE_TTL_MS });
  }
  return true;
}

const app = express();
app.disable('x-powered-by');
app.get('/files/version', async (req: Request, res: Response) => {
  if (!(await authenticate(req.headers.authorization))) {
    res.status(401).set('WWW-Authenticate', 'Basic realm="pdm", charset="UTF-8"').json({ status: 401 });
    return;
  }
  res.json(versionRecord());
});

const server = app.listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
});
