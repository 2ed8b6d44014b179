/**
 * Baseline of the `numbers` benchmark: a minimal node:http server doing the service's work for
 * POST /numbers/generate/<class>?container-name=…&count=… — the same cached HTTP Basic check
 * (parseBasicAuth, one user lookup, verifyPassword, success cached under the SHA-256 of name and
 * password), then the service's two statements (containerSql: the container and the caller's
 * role; reservationSql: the atomic reservation) through pg — without NestJS, Express, Prisma,
 * validation or request ids. Started as its own process by the runner: PORT, HOST, DATABASE_URL.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { parseBasicAuth } from '../../src/auth/basic-credentials.js';
import { verifyPassword } from '../../src/auth/password.js';
import { formatOid } from '../../src/common/oid.js';
import { startRuntime } from '../../src/common/runtime.js';
import { formatRange } from '../../src/numbers/number-format.js';
import { containerSql, reservationSql } from '../../src/numbers/numbers.repository.js';

// The service's defaults (src/config/app-config.ts), so both sides cache and pool alike.
const CACHE_TTL_MS = Number(process.env.AUTH_CACHE_TTL_MS ?? 60_000);
const MAX_COUNT = Number(process.env.NUMBERS_MAX_COUNT ?? 10_000);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_MAX ?? 10) });
const cache = new Map<string, { user: Caller; expiresAt: number }>();

interface Caller {
  id: number;
  admin: boolean;
}

async function authenticate(header: string | undefined): Promise<Caller | null> {
  const creds = parseBasicAuth(header);
  if (!creds) return null;
  const key = createHash('sha256').update(creds.name).update('\u0000').update(creds.password).digest('base64');
  const hit = cache.get(key);
  if (hit && hit.expiresAt > Date.now()) return hit.user;
  const r = await pool.query<{ id: number; admin: boolean; password_hash: string; disabled: boolean }>(
    'SELECT id, admin, password_hash, disabled FROM users WHERE name = $1',
    [creds.name],
  );
  const row = r.rows[0];
  const ok = await verifyPassword(creds.password, row?.password_hash ?? null);
  if (!ok || !row || row.disabled) return null;
  const user = { id: row.id, admin: row.admin };
  if (CACHE_TTL_MS > 0) {
    if (cache.size > 10_000) cache.clear();
    cache.set(key, { user, expiresAt: Date.now() + CACHE_TTL_MS });
  }
  return user;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

async function generate(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const runtime = startRuntime();
  const url = new URL(req.url ?? '/', 'http://baseline');
  const m = /^\/numbers\/generate\/([^/]+)$/.exec(url.pathname);
  if (req.method !== 'POST' || !m) return send(res, 404, { message: 'not found' });
  const user = await authenticate(req.headers.authorization);
  if (!user) return send(res, 401, { message: 'valid credentials are required (HTTP Basic)' });

  const className = decodeURIComponent(m[1]);
  const name = url.searchParams.get('container-name');
  const rawCount = url.searchParams.get('count') ?? '1';
  const count = /^[1-9][0-9]{0,15}$/.test(rawCount) ? Number(rawCount) : NaN;
  if (!name || !(count <= MAX_COUNT)) return send(res, 400, { message: 'container-name and count 1..max needed' });

  const found = containerSql({ kind: 'container-name', text: name }, user.id);
  const container = (
    await pool.query<{ id: number; cls: string; name: string; role: string | null }>(found.text, found.values)
  ).rows[0];
  if (!container || (!user.admin && !container.role)) return send(res, 404, { message: 'no such container' });
  if (!user.admin && container.role === 'reader') return send(res, 403, { message: 'author or manager rights needed' });

  const sql = reservationSql(container.id, className.split('|')[0], count);
  const r = (
    await pool.query<{
      start: string;
      bound: string;
      prefix: string;
      suffix: string;
      width: number;
      reserved: boolean;
    }>(sql.text, sql.values)
  ).rows[0];
  if (!r) return send(res, 404, { message: 'no numbering rule' });
  if (!r.reserved) return send(res, 409, { message: 'numbering rule exhausted' });
  send(res, 200, {
    count,
    class_name: className,
    container: { oid: formatOid(container.cls, container.id), name: container.name },
    items: formatRange(r, BigInt(r.start), count),
    _runtime: runtime(),
  });
}

const server = createServer((req, res) => {
  generate(req, res).catch((e: unknown) => {
    console.error(e);
    if (!res.headersSent) send(res, 500, { message: 'internal error' });
  });
});
server.listen(Number(process.env.PORT ?? 3002), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
});
