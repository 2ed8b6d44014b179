/**
 * Baseline of the `query` benchmark: the same query (every latest business object the caller
 * may read, ordered by number then id) paged the usual way, LIMIT/OFFSET over the live query
 * through pg on a minimal node:http server, with the same item JSON as the query service and
 * the same cached HTTP Basic check. No session, so nothing is stored:
 *   GET /query/open?limit=N         total (count(*)) and the first page, like opening a session
 *   GET /query/page?page=P&limit=N  one page at OFFSET P × N
 * Started as its own process by the runner: PORT, HOST, DATABASE_URL.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { parseBasicAuth } from '../../src/auth/basic-credentials.js';
import { verifyPassword } from '../../src/auth/password.js';
import { startRuntime } from '../../src/common/runtime.js';

const CACHE_TTL_MS = Number(process.env.AUTH_CACHE_TTL_MS ?? 60_000);
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
  const r = await pool.query<{ id: number; password_hash: string; admin: boolean; disabled: boolean }>(
    'SELECT id, password_hash, admin, disabled FROM users WHERE name = $1',
    [creds.name],
  );
  const row = r.rows[0];
  if (!(await verifyPassword(creds.password, row?.password_hash ?? null)) || !row || row.disabled) return null;
  const user = { id: row.id, admin: row.admin };
  cache.set(key, { user, expiresAt: Date.now() + CACHE_TTL_MS });
  return user;
}

/** $1: the caller's id; admins read every container. */
const WHERE = `i.latest AND (
  (SELECT admin FROM users WHERE id = $1) OR m.container_id IN (SELECT container_id FROM memberships WHERE user_id = $1))`;

const COUNT_SQL = `SELECT count(*)::int AS n FROM iterations i JOIN masters m ON m.id = i.master_id WHERE ${WHERE}`;

const PAGE_SQL = `
  SELECT i.id, m.class, m.subtype, m.number, m.name, i.version, i.iteration, i.state, i.latest,
         c.id AS cid, c.class AS cclass, c.name AS cname, u.name AS creator, i.created_at, i.modified_at
  FROM iterations i JOIN masters m ON m.id = i.master_id
  JOIN containers c ON c.id = m.container_id JOIN users u ON u.id = i.created_by
  WHERE ${WHERE}
  ORDER BY m.number, i.id LIMIT $2 OFFSET $3`;

interface Row {
  id: number;
  class: string;
  subtype: string | null;
  number: string;
  name: string;
  version: string;
  iteration: number;
  state: string;
  latest: boolean;
  cid: number;
  cclass: string;
  cname: string;
  creator: string;
  created_at: Date;
  modified_at: Date;
}

function item(r: Row, base: string) {
  const oid = `OR:${r.class}:${r.id}`;
  return {
    oid,
    type: r.class,
    subtype: r.subtype,
    number: r.number,
    name: r.name,
    version: r.version,
    iteration: r.iteration,
    state: r.state,
    latest: r.latest,
    container: { oid: `OR:${r.cclass}:${r.cid}`, name: r.cname },
    createdBy: r.creator,
    created: r.created_at.toISOString(),
    modified: r.modified_at.toISOString(),
    url: `${base}/files/${oid}`,
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const runtime = startRuntime();
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method !== 'GET' || !['/query/open', '/query/page'].includes(url.pathname)) {
    return send(res, 404, { statusCode: 404 });
  }
  const user = await authenticate(req.headers.authorization);
  if (!user) return send(res, 401, { statusCode: 401 });
  const page = Number(url.searchParams.get('page') ?? 0);
  const limit = Number(url.searchParams.get('limit') ?? 25);
  const base = `http://${req.headers.host ?? 'localhost'}`;
  const rows = await pool.query<Row>(PAGE_SQL, [user.id, limit, page * limit]);
  const total =
    url.pathname === '/query/open' ? (await pool.query<{ n: number }>(COUNT_SQL, [user.id])).rows[0].n : undefined;
  const items = rows.rows.map((r) => item(r, base));
  send(res, 200, { total, page, limit, count: items.length, items, _runtime: runtime() });
}

const server = createServer((req, res) => {
  handle(req, res).catch((e: unknown) => send(res, 500, { statusCode: 500, message: String(e) }));
});
server.listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
});
