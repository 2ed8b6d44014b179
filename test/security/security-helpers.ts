import type pg from 'pg';
import type request from 'supertest';

/** A user name and password, as `.auth(...creds)` takes them. */
export type Creds = readonly [string, string];

/**
 * Tables whose content a refused request must leave exactly as it was, each with the row text
 * hashed (a session's last use moves with every fetch by its owner, so it is left out).
 */
const TABLES: Record<string, string> = {
  users: 't::text',
  containers: 't::text',
  memberships: 't::text',
  workspaces: 't::text',
  numbering_rules: 't::text',
  masters: 't::text',
  iterations: 't::text',
  usage_links: 't::text',
  content_roles: 't::text',
  content_items: 't::text',
  content_blobs: 't::text',
  report_templates: 't::text',
  query_sessions: '(t.id, t.user_id, t.query, t.total, t.created_at, t.closed_at)::text',
  query_session_chunks: 't::text',
};

/** Row count and a hash of every row of each table: equal fingerprints mean nothing changed. */
export async function fingerprint(db: pg.Pool): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [table, row] of Object.entries(TABLES)) {
    const { rows } = await db.query<{ n: string; h: string }>(
      `SELECT count(*)::text AS n, md5(coalesce(string_agg(${row}, '|' ORDER BY ${row}), '')) AS h FROM ${table} t`,
    );
    out[table] = `${rows[0].n}:${rows[0].h}`;
  }
  const chunks = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM blob_chunks');
  out.blob_chunks = chunks.rows[0].n;
  return out;
}

/** Words that only appear in a message when database or runtime internals leak into it. */
const LEAK =
  /(select |insert |update |delete from|syntax error|relation "|column "|violates|prisma|postgres|\bpg_|stack|\.ts:\d+|\bat [\w.]+ \(|node_modules|sqlstate)/i;

/**
 * The error envelope with this status, and a message free of SQL, stack or driver text once the
 * caller's own input (`echoed`, which a message may quote) is taken out.
 */
export function expectError(
  res: request.Response,
  status: number,
  message?: string | RegExp,
  echoed: readonly string[] = [],
): void {
  expect({ status: res.status, body: res.body as unknown }).toEqual({
    status,
    body: {
      statusCode: status,
      error: expect.any(String),
      message: message ?? expect.any(String),
      requestId: expect.any(String),
    },
  });
  let text = String((res.body as { message: string }).message);
  for (const e of echoed) text = text.split(e).join('');
  expect(text).not.toMatch(LEAK);
}

/** An answer that is never a 5xx: 2xx with a JSON body, or a clean error envelope. */
export function expectNoLeak(res: request.Response): void {
  expect(res.status).toBeLessThan(500);
  expect(res.text).not.toMatch(/syntax error|relation "|node_modules|\.ts:\d+|SQLSTATE/i);
}
