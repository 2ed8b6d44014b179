/**
 * Baseline of the `structure` benchmark: a minimal node:http server doing the service's work for
 * GET /objects/<number>/structure?levels=max&type=<class> — the same cached HTTP Basic check
 * (baseline-auth.ts), the caller's containers, the object, then the same recursive statement
 * (src/objects/structure/structure.repository.ts) through pg and the same nesting of its rows into a tree
 * — without NestJS, Express, Prisma, validation or request ids. Started as its own process by
 * the runner: PORT, HOST, DATABASE_URL.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildTree, MAX_LEVELS } from '../../src/objects/objects.service.js';
import {
  findObjectsSql,
  walkSql,
  type ObjectRow,
  type WalkRow,
} from '../../src/objects/structure/structure.repository.js';
import { createBaselineAuth } from './baseline-auth.js';
import { baselinePool, sendJson, serveBaseline } from './baseline-http.js';

// The service's default (src/config/app-config.ts).
const MAX_NODES = Number(process.env.OBJECTS_STRUCTURE_MAX_NODES ?? 10_000);
const pool = baselinePool();
const authenticate = createBaselineAuth(pool);

async function structure(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://baseline');
  const m = /^\/objects\/([^/]+)\/structure$/.exec(url.pathname);
  if (req.method !== 'GET' || !m) return sendJson(res, 404, { message: 'not found' });
  const user = await authenticate(req.headers.authorization);
  if (!user) return sendJson(res, 401, { message: 'valid credentials are required (HTTP Basic)' });
  const number = decodeURIComponent(m[1]);
  const cls = url.searchParams.get('type');
  if (url.searchParams.get('levels') !== 'max' || !cls)
    return sendJson(res, 400, { message: 'levels=max&type= needed' });

  const readable = user.admin
    ? null
    : (
        await pool.query<{ id: number }>('SELECT container_id AS id FROM access_roles WHERE user_id = $1', [user.id])
      ).rows.map((r) => r.id);
  const find = findObjectsSql({ kind: 'number', text: number, cls, number }, user.id);
  const root = (await pool.query<ObjectRow>(find.text, find.values)).rows[0];
  if (!root || (readable !== null && !readable.includes(root.container_id)))
    return sendJson(res, 404, { message: 'no such object' });
  const walk = walkSql(root, 'down', MAX_LEVELS, readable, MAX_NODES + 1);
  const rows = (await pool.query<WalkRow>(walk.text, walk.values)).rows;
  const truncated = rows.length > MAX_NODES;
  const kept = truncated ? rows.slice(0, MAX_NODES) : rows;
  sendJson(res, 200, {
    levels: MAX_LEVELS,
    nodes: kept.length,
    nodeLimit: MAX_NODES,
    truncated,
    root: buildTree(kept),
  });
}

serveBaseline(pool, structure);
