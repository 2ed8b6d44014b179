/**
 * Baseline of the `reports` benchmark: a minimal node:http server answering the three benchmark
 * queries with the same JSON as POST /reports ({count, items, _runtime}), from SQL written by
 * hand (access control as the same access_roles subquery) run through pg — no NestJS, Express, Prisma,
 * QML or transaction. The same cached HTTP Basic check as the service (baseline-auth.ts). Routes:
 * POST /reports/<query name>?<parameter>=…, the body (the QML the service gets) read and ignored.
 * Started as its own process by the runner: PORT, HOST, DATABASE_URL.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';
import { startRuntime } from '../../src/common/runtime.js';
import { createBaselineAuth } from './baseline-auth.js';
import { baselinePool, sendJson, serveBaseline } from './baseline-http.js';

const MAX_ROWS = Number(process.env.REPORT_MAX_ROWS ?? 100_000);
const pool = baselinePool();
const authenticate = createBaselineAuth(pool);

/** The caller's containers, computed once per statement as the service does (an InitPlan). */
const READABLE = '= ANY(ARRAY(SELECT container_id FROM access_roles WHERE user_id = $1))';

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
  'change-management': {
    param: 'number',
    sql: `SELECT cm.number, am.number, pm.number, pm.name
      FROM iterations ci JOIN masters cm ON cm.id = ci.master_id
      JOIN links l1 ON l1.class = 'wt.change2.IncludedIn2' AND l1.role_a_id = ci.id
      JOIN iterations ai ON ai.id = l1.role_b_id JOIN masters am ON am.id = ai.master_id
      JOIN links l2 ON l2.class = 'wt.change2.AffectedActivityData' AND l2.role_a_id = ai.id
      JOIN iterations pi ON pi.id = l2.role_b_id JOIN masters pm ON pm.id = pi.master_id
      WHERE cm.class = 'wt.change2.WTChangeOrder2' AND am.class = 'wt.change2.WTChangeActivity2'
        AND pm.class = 'wt.part.WTPart'
        AND cm.container_id ${READABLE} AND am.container_id ${READABLE} AND pm.container_id ${READABLE}
        AND (l1.container_id IS NULL OR l1.container_id ${READABLE})
        AND (l2.container_id IS NULL OR l2.container_id ${READABLE})
        AND cm.number LIKE $2 AND ci.latest
      ORDER BY cm.number, am.number, pm.number, ci.id, ai.id, pi.id LIMIT ${MAX_ROWS + 1}`,
  },
  'files-per-state': {
    sql: `SELECT i.state, count(c.id)::int8, sum(c.size)::int8
      FROM iterations i JOIN masters m ON m.id = i.master_id JOIN content_items c ON c.iteration_id = i.id
      WHERE m.class = 'wt.doc.WTDocument' AND m.container_id ${READABLE} AND i.latest
      GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT ${MAX_ROWS + 1}`,
  },
};

pg.types.setTypeParser(20, (v) => Number(v));

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const runtime = startRuntime();
  for await (const chunk of req) void chunk;
  const url = new URL(req.url ?? '/', 'http://localhost');
  const query = req.method === 'POST' ? QUERIES[url.pathname.replace(/^\/reports\//, '')] : undefined;
  if (!query) return sendJson(res, 404, { statusCode: 404 });
  const user = await authenticate(req.headers.authorization);
  if (!user) return sendJson(res, 401, { statusCode: 401 });
  const values: unknown[] = [user.id];
  if (query.param) values.push((url.searchParams.get(query.param) ?? '').replace(/\*/g, '%').replace(/\?/g, '_'));
  const r = await pool.query<unknown[]>({ text: query.sql, values, rowMode: 'array' });
  const items = r.rows.slice(0, MAX_ROWS).map((row) => row.map((v) => (v instanceof Date ? v.toISOString() : v)));
  sendJson(res, 200, {
    count: items.length,
    items,
    ...(r.rows.length > MAX_ROWS ? { truncated: true } : {}),
    _runtime: runtime(),
  });
}

serveBaseline(pool, handle);
