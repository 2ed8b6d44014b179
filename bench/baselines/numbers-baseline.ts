/**
 * Baseline of the `numbers` benchmark: a minimal node:http server doing the service's work for
 * POST /numbers/generate/<class>?container-name=…&count=… — the same cached HTTP Basic check
 * (baseline-auth.ts), then the service's two statements (containerSql: the container and the
 * caller's role; reservationSql: the atomic reservation) through pg — without NestJS, Express,
 * Prisma, validation or request ids. Started as its own process by the runner: PORT, HOST, DATABASE_URL.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatOid } from '../../src/catalog/oid.js';
import { startRuntime } from '../../src/common/runtime.js';
import { formatRange } from '../../src/numbers/number-format.js';
import { containerSql, reservationSql } from '../../src/numbers/numbers.repository.js';
import { createBaselineAuth } from './baseline-auth.js';
import { baselinePool, sendJson, serveBaseline } from './baseline-http.js';

// The service's default (src/config/app-config.ts).
const MAX_COUNT = Number(process.env.NUMBERS_MAX_COUNT ?? 10_000);
const pool = baselinePool();
const authenticate = createBaselineAuth(pool);

async function generate(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const runtime = startRuntime();
  const url = new URL(req.url ?? '/', 'http://baseline');
  const m = /^\/numbers\/generate\/([^/]+)$/.exec(url.pathname);
  if (req.method !== 'POST' || !m) return sendJson(res, 404, { message: 'not found' });
  const user = await authenticate(req.headers.authorization);
  if (!user) return sendJson(res, 401, { message: 'valid credentials are required (HTTP Basic)' });

  const className = decodeURIComponent(m[1]);
  const name = url.searchParams.get('container-name');
  const rawCount = url.searchParams.get('count') ?? '1';
  const count = /^[1-9][0-9]{0,15}$/.test(rawCount) ? Number(rawCount) : NaN;
  if (!name || !(count <= MAX_COUNT)) return sendJson(res, 400, { message: 'container-name and count 1..max needed' });

  const found = containerSql({ kind: 'container-name', text: name }, user.id);
  const container = (
    await pool.query<{ id: number; cls: string; name: string; role: string | null }>(found.text, found.values)
  ).rows[0];
  if (!container || (!user.admin && !container.role)) return sendJson(res, 404, { message: 'no such container' });
  if (!user.admin && container.role === 'reader')
    return sendJson(res, 403, { message: 'author or manager rights needed' });

  const sql = reservationSql(container.id, { cls: className.split('|')[0], table: 'masters' }, count);
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
  if (!r) return sendJson(res, 404, { message: 'no numbering rule' });
  if (!r.reserved) return sendJson(res, 409, { message: 'numbering rule exhausted' });
  sendJson(res, 200, {
    count,
    class_name: className,
    container: { oid: formatOid(container.cls, container.id), name: container.name },
    items: formatRange(r, BigInt(r.start), count),
    _runtime: runtime(),
  });
}

serveBaseline(pool, generate);
