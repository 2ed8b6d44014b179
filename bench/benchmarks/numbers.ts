/**
 * `numbers`: POST /numbers/generate as alice, 32 connections (--connections) on one numbering
 * rule — requests per second with count=1 (reservations on one rule queue on its row lock, one
 * commit at a time) and numbers per second with count=1000.
 * Every answer is checked: count items, consecutive, and no number in two answers
 * (`duplicate_numbers`, must be 0 on both sides).
 * The baseline (bench/baselines/numbers-baseline.ts) runs the service's two SQL statements
 * through pg on a bare node:http server with the same Basic check and cache. Each side has
 * its own container and rule (created in setup, prefix BN-, width 14), so both start clean.
 * The baseline runs one reservation per request; the service serves the requests waiting for
 * the same rule's lock with one statement (src/numbers/reservation-batcher.ts), so the ratio
 * shows that design as well as the framework's cost.
 * Targets: count=1 at least 0.5 × the baseline, count=1000 at least 0.8 ×.
 */
import autocannon from 'autocannon';
import type { ChildServer } from '../harness/child-server.js';
import { withClient } from '../harness/database.js';
import type { Benchmark, BenchContext, RunSpec, Sample } from '../harness/types.js';
import { ALICE_BASIC, basicAuth } from './common.js';

const CLASS = 'wt.doc.WTDocument';
const PREFIX = 'BN-';
const WIDTH = 14;
const CONTAINERS = { service: 'bench-numbers-service', baseline: 'bench-numbers-baseline' } as const;
type Side = keyof typeof CONTAINERS;

let baseline: ChildServer | undefined;

function generatePath(side: Side, count: number): string {
  return `/numbers/generate/${CLASS}?container-name=${encodeURIComponent(CONTAINERS[side])}&count=${count}`;
}

/** The counters an answer handed out: start … start + count - 1. */
type Range = [start: number, count: number];

interface LoadCheck {
  requestsPerSec: number;
  p99Ms: number;
  ranges: Range[];
}

/**
 * Autocannon with every answer read: each must hold count consecutive numbers, and its range
 * is kept (not the numbers), so checking for duplicates stays cheap at millions of numbers.
 */
async function load(
  server: ChildServer,
  side: Side,
  ctx: BenchContext,
  count: number,
  seconds: number,
): Promise<LoadCheck> {
  const ranges: Range[] = [];
  let bad = '';
  const r = await autocannon({
    url: server.url,
    connections: ctx.connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: generatePath(side, count),
        headers: { authorization: ALICE_BASIC },
        onResponse: (status: number, body: string) => {
          if (status !== 200) {
            bad ||= `${status} ${body.slice(0, 200)}`;
            return;
          }
          const items = (JSON.parse(body) as { items: string[] }).items;
          const first = Number(items[0].slice(PREFIX.length));
          const consecutive = items.every((n, i) => Number(n.slice(PREFIX.length)) === first + i);
          if (items.length !== count || !consecutive)
            bad ||= `not ${count} consecutive numbers: ${items.slice(0, 3).join()}…`;
          ranges.push([first, count]);
        },
      },
    ],
  });
  if (bad || r.errors || r.timeouts || r.non2xx) {
    throw new Error(
      `${server.name} count=${count}: ${bad || `${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`}`,
    );
  }
  return { requestsPerSec: r.requests.average, p99Ms: r.latency.p99, ranges };
}

/** Numbers that were handed out more than once: overlaps of the sorted ranges. */
function duplicates(ranges: Range[]): number {
  ranges.sort((a, b) => a[0] - b[0]);
  let count = 0;
  let end = -Infinity;
  for (const [start, n] of ranges) {
    count += Math.max(0, Math.min(end, start + n) - start);
    end = Math.max(end, start + n);
  }
  return count;
}

async function measure(side: Side, ctx: BenchContext, run: RunSpec): Promise<Sample> {
  const server = side === 'service' ? ctx.service : baseline!;
  const seconds = Math.max(1, Math.round(run.seconds / 2));
  const single = await load(server, side, ctx, 1, seconds);
  const bulk = await load(server, side, ctx, 1000, seconds);
  return {
    requests_per_s: single.requestsPerSec,
    p99_ms: single.p99Ms,
    numbers_per_s: bulk.requestsPerSec * 1000,
    duplicate_numbers: duplicates([...single.ranges, ...bulk.ranges]),
  };
}

/** Fresh containers with alice as author and one rule each: benchmark objects only. */
async function createContainers(ctx: BenchContext): Promise<void> {
  await withClient(ctx.databaseUrl, async (c) => {
    await c.query('DELETE FROM containers WHERE name = ANY($1)', [Object.values(CONTAINERS)]);
    for (const name of Object.values(CONTAINERS)) {
      const { rows } = await c.query<{ id: number }>(
        "INSERT INTO containers (class, name) VALUES ('wt.pdmlink.PDMLinkProduct', $1) RETURNING id",
        [name],
      );
      await c.query(
        "INSERT INTO memberships (container_id, user_id, role) SELECT $1, id, 'author' FROM users WHERE name = 'alice'",
        [rows[0].id],
      );
      await c.query(
        'INSERT INTO numbering_rules (container_id, class, prefix, width, next) VALUES ($1, $2, $3, $4, 1)',
        [rows[0].id, CLASS, PREFIX, WIDTH],
      );
    }
  });
}

/** Both sides refuse anonymous callers and non-members and answer alice alike: same work. */
async function checkSameWork(ctx: BenchContext): Promise<void> {
  const bob = basicAuth('bob', 'bob-pw');
  for (const side of ['service', 'baseline'] as const) {
    const server = side === 'service' ? ctx.service : baseline!;
    const url = server.url + generatePath(side, 3);
    const anonymous = await fetch(url, { method: 'POST' });
    const stranger = await fetch(url, { method: 'POST', headers: { authorization: bob } });
    const res = await fetch(url, { method: 'POST', headers: { authorization: ALICE_BASIC } });
    const body = (await res.json()) as {
      count: number;
      class_name: string;
      container: { name: string };
      items: string[];
    };
    const expected = ['BN-00000000000001', 'BN-00000000000002', 'BN-00000000000003'];
    if (anonymous.status !== 401 || stranger.status !== 404 || res.status !== 200) {
      throw new Error(
        `${server.name}: ${anonymous.status} anonymous, ${stranger.status} for bob, ${res.status} for alice`,
      );
    }
    if (
      body.count !== 3 ||
      body.class_name !== CLASS ||
      body.container.name !== CONTAINERS[side] ||
      body.items.join() !== expected.join()
    ) {
      throw new Error(`${server.name}: unexpected answer ${JSON.stringify(body)}`);
    }
  }
}

export const numbers: Benchmark = {
  name: 'numbers',
  description: 'POST /numbers/generate on one rule: count=1 requests/s and count=1000 numbers/s, no duplicates',
  metrics: [
    { name: 'requests_per_s', unit: 'req/s', direction: 'higher', target: { kind: 'ratio', min: 0.5 } },
    { name: 'p99_ms', unit: 'ms', direction: 'lower' },
    { name: 'numbers_per_s', unit: 'numbers/s', direction: 'higher', target: { kind: 'ratio', min: 0.8 } },
    { name: 'duplicate_numbers', unit: 'numbers', direction: 'lower', target: { kind: 'absolute', max: 0 } },
  ],
  async setup(ctx) {
    await createContainers(ctx);
    baseline = await ctx.startBaseline('baselines/numbers-baseline.js', { DATABASE_URL: ctx.databaseUrl });
    await checkSameWork(ctx);
  },
  runService: (ctx, run) => measure('service', ctx, run),
  runBaseline: (ctx, run) => measure('baseline', ctx, run),
  async teardown(ctx) {
    await baseline?.stop();
    baseline = undefined;
    await withClient(ctx.databaseUrl, (c) =>
      c.query('DELETE FROM containers WHERE name = ANY($1)', [Object.values(CONTAINERS)]),
    );
  },
};
