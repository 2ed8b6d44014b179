/**
 * Baseline of the `query` benchmark: the same query (every latest business object the caller
 * may read, ordered by number then id) paged the usual way, LIMIT/OFFSET over the live query
 * through pg on a minimal node:http server, with the same item JSON as the query service and
 * the same cached HTTP Basic check (baseline-auth.ts). No session, so nothing is stored:
 *   GET /query/open?limit=N         total (count(*)) and the first page, like opening a session
 *   GET /query/page?page=P&limit=N  one page at OFFSET P × N
 * Started as its own process by the runner: PORT, HOST, DATABASE_URL.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startRuntime } from '../../src/common/runtime.js';
import { createBaselineAuth } from './baseline-auth.js';
import { baselinePool, sendJson, serveBaseline } from './baseline-http.js';

const pool = baselinePool();
const authenticate = createBaselineAuth(pool);

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

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const runtime = startRuntime();
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method !== 'GET' || !['/query/open', '/query/page'].includes(url.pathname)) {
    return sendJson(res, 404, { statusCode: 404 });
  }
  const user = await authenticate(req.headers.authorization);
  if (!user) return sendJson(res, 401, { statusCode: 401 });
  const page = Number(url.searchParams.get('page') ?? 0);
  const limit = Number(url.searchParams.get('limit') ?? 25);
  const base = `http://${req.headers.host ?? 'localhost'}`;
  const rows = await pool.query<Row>(PAGE_SQL, [user.id, limit, page * limit]);
  const total =
    url.pathname === '/query/open' ? (await pool.query<{ n: number }>(COUNT_SQL, [user.id])).rows[0].n : undefined;
  const items = rows.rows.map((r) => item(r, base));
  sendJson(res, 200, { total, page, limit, count: items.length, items, _runtime: runtime() });
}

serveBaseline(pool, handle);
