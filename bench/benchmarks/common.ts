/** What several benchmarks share: the demo credentials and the version load. */
import type { ChildServer } from '../harness/child-server.js';
import { assertClean, runLoad } from '../harness/load.js';
import type { BenchContext } from '../harness/types.js';

/** An Authorization header for HTTP Basic. */
export function basicAuth(name: string, password: string): string {
  return 'Basic ' + Buffer.from(`${name}:${password}`).toString('base64');
}

/** The demo users with their demo passwords exist in every generated dataset; alice is an author. */
export const ALICE_BASIC = basicAuth('alice', 'alice-pw');

export const VERSION_PATH = '/files/version';

export function startVersionBaseline(ctx: BenchContext): Promise<ChildServer> {
  return ctx.startBaseline('baselines/version-baseline.js', { DATABASE_URL: ctx.databaseUrl });
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

/** GET /files/version as alice on every connection for `seconds`; fails on any non-2xx. */
export async function versionLoad(server: ChildServer, ctx: BenchContext, seconds: number) {
  const r = await runLoad({
    url: server.url + VERSION_PATH,
    headers: { authorization: ALICE_BASIC },
    connections: ctx.connections,
    seconds,
  });
  assertClean(r, `${server.name} GET ${VERSION_PATH}`);
  return r;
}
