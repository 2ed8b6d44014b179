/**
 * Baseline of the `reports` benchmark: a minimal node:http server answering the three benchmark
 * queries with the same JSON as POST /reports ({count, items, _runtime}), from SQL written by
 * hand (access control as the same memberships subquery) run through pg — no NestJS, Express, Prisma,
 * QML or transaction. The same cached HTTP Basic check as the service. Routes:
 * POST /reports/<query name>?<parameter>=…, the body (the QML the service gets) read and ignored.
 * Started as its own process by the runner: PORT, HOST, DATABASE_URL.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { parseBasicAuth } from '../../src/auth/basic-credentials.js';
import { verifyPassword } from '../../src/auth/password.js';
import { startRuntime } from '../../src/common/runtime.js';

const CACHE_TTL_MS = Number(process.env.AUTH_CACHE_TTL_MS ?? 60_000);
const MAX_ROWS = Number(process.env.REPORT_MAX_ROWS ?? 100_000);
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

/** The caller's containers, computed once per statement as the service does (an InitPlan). */
const READABLE = '= ANY(ARRAY(SELECT container_id FROM memberships WHERE user_id = $1))';

/** The hand-written SQL of each benchmark query: $1 the caller's id, $2 the parameter if any. */
const QUERIES: Record<string, { sql: string; param?: string }> = {
  'number-wildcard': {
    param: 'number',
    sql: `SELECT 'OR:' || m.class || ':' || i.id, m.number, m.name, i.state, i.modified_at
      FROM iterations i JOIN masters m ON m.id = i.master_id
      WHERE m.class = 'wt.doc.WTDocument' AND m.container_id ${READABLE} AND m.number LIKE $2 AND i.latest
      ORDER BY m.number, i.id LIMIT ${MAX_ROWS + 1}`,
  },
  'part-structure': {
    param: 'number',
    sql: `SELECT m.number, um.number, um.name, l.quantity, l.line_number
      FROM iterations i JOIN masters m ON m.id = i.master_id
      JOIN usage_links l ON l.parent_id = i.id JOIN masters um ON um.id = l.child_id
      WHERE m.class = 'wt.part.WTPart' AND l.class = 'wt.part.WTPartUsageLink' AND um.class = 'wt.part.WTPart'
        AND m.container_id ${READABLE} AND um.container_id ${READABLE}
        AND i.latest AND m.number LIKE $2
      ORDER BY m.number, l.line_number, i.id, l.id, um.id LIMIT ${MAX_ROWS + 1}`,
  },
  'files-per-state': {
    sql: `SELECT i.state, count(c.id)::int8, sum(c.size)::int8
      FROM iterations i JOIN masters m ON m.id = i.master_id JOIN content_items c ON c.iteration_id = i.id
      WHERE m.class = 'wt.doc.WTDocument' AND m.container_id ${READABLE} AND i.latest
      GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT ${MAX_ROWS + 1}`,
  },
};

pg.types.setTypeParser(20, (v) => Number(v));

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
  for await (const chunk of req) void chunk;
  const url = new URL(req.url ?? '/', 'http://localhost');
  const query = req.method === 'POST' ? QUERIES[url.pathname.replace(/^\/reports\//, '')] : undefined;
  if (!query) return send(res, 404, { statusCode: 404 });
  const user = await authenticate(req.headers.authorization);
  if (!user) return send(res, 401, { statusCode: 401 });
  const values: unknown[] = [user.id];
  if (query.param) values.push((url.searchParams.get(query.param) ?? '').replace(/\*/g, '%').replace(/\?/g, '_'));
  const r = await pool.query<unknown[]>({ text: query.sql, values, rowMode: 'array' });
  const items = r.rows.slice(0, MAX_ROWS).map((row) => row.map((v) => (v instanceof Date ? v.toISOString() : v)));
  send(res, 200, {
    count: items.length,
    items,
    ...(r.rows.length > MAX_ROWS ? { truncated: true } : {}),
    _runtime: runtime(),
  });
}

const server = createServer((req, res) => {
  handle(req, res).catch((e: unknown) => send(res, 500, { statusCode: 500, message: String(e) }));
});
server.listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
});
