/**
 * Baseline of the `query` benchmark: the same query (every latest business object the caller
 * may read, ordered by number then id) paged the usual way, LIMIT/OFFSET over the live query
 * through pg on a minimal node:http server, with the same item JSON as the query service and
 * the same cached HTTP Basic check (baseline-auth.ts). No session, so nothing is stored:
 *   GET /query/open?limit=N         total (count(*)) and the first page, like opening a session
 *   GET /query/page?page=P&limit=N  one page at OFFSET P × N
 *   … &assoc=files&assoc=representations  each item with its files and representations, read
 *     as the service's loader reads them (the statements of src/query/associations, through pg)
 * Started as its own process by the runner: PORT, HOST, DATABASE_URL.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startRuntime } from '../../src/common/runtime.js';
import { REPRESENTATION_ROLES } from '../../src/query/associations/association-entries.js';
import { filesSql, type FileRow } from '../../src/query/associations/associations.repository.js';
import { createBaselineAuth } from './baseline-auth.js';
import { baselinePool, sendJson, serveBaseline } from './baseline-http.js';

const pool = baselinePool();
const authenticate = createBaselineAuth(pool);

/** $1: the caller's id; admins read every container. */
const WHERE = `i.latest AND (
  (SELECT admin FROM users WHERE id = $1) OR m.container_id IN (SELECT container_id FROM access_roles WHERE user_id = $1))`;

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

/** What the caller reads: null for an administrator, else the containers they have a role in (access_roles). */
async function readableOf(user: { id: number; admin: boolean }): Promise<number[] | null> {
  if (user.admin) return null;
  const { rows } = await pool.query<{ id: number }>('SELECT container_id AS id FROM access_roles WHERE user_id = $1', [
    user.id,
  ]);
  return rows.map((r) => r.id);
}

/** Adds `files` and `representations` (those asked for) to each item, one statement each. */
async function addAssociations(
  items: ReturnType<typeof item>[],
  names: string[],
  readable: number[] | null,
  base: string,
): Promise<void> {
  const ids = items.map((i) => Number(i.oid.split(':')[2]));
  const byId = new Map(items.map((i, k) => [ids[k], i as ReturnType<typeof item> & Record<string, unknown[]>]));
  const url = (r: FileRow) => `${base}/files/${byId.get(r.item)!.oid}/${encodeURIComponent(r.file_name)}`;
  const read = async (roles: readonly string[] | null) => {
    const q = filesSql(ids, readable, roles);
    return (await pool.query<FileRow>(q.text, q.values)).rows;
  };
  await Promise.all([
    (async () => {
      if (!names.includes('files')) return;
      for (const i of byId.values()) i.files = [];
      for (const r of await read(null)) {
        byId.get(r.item)!.files.push({
          url: url(r),
          role: r.role,
          filename: r.file_name,
          mimetype: r.mime_type,
          size: Number(r.size),
          oid: `OR:wt.content.ApplicationData:${r.id}`,
          sha256: r.sha256,
        });
      }
    })(),
    (async () => {
      if (!names.includes('representations')) return;
      for (const i of byId.values()) i.representations = [];
      for (const r of await read(REPRESENTATION_ROLES)) {
        byId.get(r.item)!.representations.push({ role: r.role, name: r.file_name, url: url(r), mimeType: r.mime_type });
      }
    })(),
  ]);
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
  const assoc = url.searchParams.getAll('assoc');
  if (assoc.length) await addAssociations(items, assoc, await readableOf(user), base);
  sendJson(res, 200, { total, page, limit, count: items.length, items, _runtime: runtime() });
}

serveBaseline(pool, handle);
