/** What several benchmarks share: the demo credentials, the version load, a document to upload to. */
import type pg from 'pg';
import type { ChildServer } from '../harness/child-server.js';
import { withClient } from '../harness/database.js';
import { assertClean, runLoad } from '../harness/load.js';
import type { BenchContext } from '../harness/types.js';

/** An Authorization header for HTTP Basic. */
export function basicAuth(name: string, password: string): string {
  return 'Basic ' + Buffer.from(`${name}:${password}`).toString('base64');
}

/** The demo users with their demo passwords exist in every generated dataset; alice is an author. */
export const ALICE_BASIC = basicAuth('alice', 'alice-pw');

export const VERSION_PATH = '/files/version';

export function startVersionBaseline(ctx: BenchContext, logging = true): Promise<ChildServer> {
  return ctx.startBaseline('baselines/version-baseline.js', {
    DATABASE_URL: ctx.databaseUrl,
    VERSION_BASELINE_LOGGING: logging ? 'on' : 'off',
  });
}

/**
 * One request as alice before any load, so the server's auth cache holds her verification.
 * Otherwise every connection of a cold server misses the cache at once and runs scrypt (about
 * 0.15 s of CPU each here), and a short warm-up can end before a single answer.
 */
export async function primeAuth(server: ChildServer): Promise<void> {
  const res = await fetch(server.url + VERSION_PATH, { headers: { authorization: ALICE_BASIC } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${server.name}: GET ${VERSION_PATH} as alice answered ${res.status}`);
}

/** GET /files/version as alice (Basic unless told) on every connection for `seconds`; fails on any non-2xx. */
export async function versionLoad(
  server: ChildServer,
  ctx: BenchContext,
  seconds: number,
  authorization = ALICE_BASIC,
) {
  const r = await runLoad({
    url: server.url + VERSION_PATH,
    headers: { authorization },
    connections: ctx.connections,
    seconds,
  });
  assertClean(r, `${server.name} GET ${VERSION_PATH}`);
  return r;
}

/**
 * A container of the benchmark's own (alice author) holding one document with one iteration:
 * what the file benchmarks upload to. Any earlier one of that name is removed first.
 */
export async function createBenchDocument(ctx: BenchContext, container: string, number: string, name: string) {
  await withClient(ctx.databaseUrl, async (c) => {
    await removeBenchContainer(c, container);
    const created = await c.query<{ id: number }>(
      "INSERT INTO containers (class, name) VALUES ('wt.pdmlink.PDMLinkProduct', $1) RETURNING id",
      [container],
    );
    const id = created.rows[0].id;
    await c.query(
      "INSERT INTO memberships (container_id, user_id, role) SELECT $1, id, 'author' FROM users WHERE name = 'alice'",
      [id],
    );
    const master = await c.query<{ id: number }>(
      "INSERT INTO masters (class, number, name, container_id) VALUES ('wt.doc.WTDocument', $1, $2, $3) RETURNING id",
      [number, name, id],
    );
    await c.query(
      "INSERT INTO iterations (master_id, created_by, modified_by) SELECT $1, id, id FROM users WHERE name = 'alice'",
      [master.rows[0].id],
    );
  });
}

/** A benchmark's container and its objects (their blobs are the caller's to remove). */
export async function removeBenchContainer(c: pg.Client, container: string): Promise<void> {
  await c.query('DELETE FROM masters WHERE container_id IN (SELECT id FROM containers WHERE name = $1)', [container]);
  await c.query('DELETE FROM containers WHERE name = $1', [container]);
}

/** A file benchmark's container and objects, and the blobs made since `since` that only they used. */
export async function removeBenchFiles(databaseUrl: string, container: string, since: Date): Promise<void> {
  await withClient(databaseUrl, async (c) => {
    await removeBenchContainer(c, container);
    await c.query(
      `DELETE FROM content_blobs b WHERE b.created_at >= $1
       AND NOT EXISTS (SELECT 1 FROM content_items i WHERE i.sha256 = b.sha256)`,
      [since],
    );
  });
}
