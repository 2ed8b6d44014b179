/**
 * `structure`: GET /objects/<number>/structure?levels=max as alice at 32 connections, over the
 * 64 part assemblies with the most usage links in containers alice reads (each request the next
 * one in turn): requests per second and p50 latency, and p50 at one connection. Every answer is
 * checked: 200, and the same tree on both sides (compared once per assembly in setup).
 * The baseline (bench/baselines/structure-baseline.ts) runs the same recursive statement through
 * pg on a bare node:http server with the same Basic check and cache and nests the rows the same
 * way, so the ratio is what the framework and Prisma cost around one recursive query.
 * No target yet: reported.
 */
import autocannon from 'autocannon';
import type { ChildServer } from '../harness/child-server.js';
import { withClient } from '../harness/database.js';
import type { Benchmark, BenchContext, RunSpec, Sample } from '../harness/types.js';
import { ALICE_BASIC } from './common.js';

let baseline: ChildServer | undefined;
let paths: string[] = [];

/** The part assemblies with the most usage links in containers alice may read. */
async function assemblies(ctx: BenchContext): Promise<string[]> {
  return withClient(ctx.databaseUrl, async (c) => {
    const { rows } = await c.query<{ number: string }>(
      `SELECT m.number FROM masters m
       JOIN iterations i ON i.master_id = m.id AND i.latest
       JOIN usage_links ul ON ul.parent_id = i.id
       WHERE m.class = 'wt.part.WTPart' AND m.container_id IN (
         SELECT mb.container_id FROM memberships mb JOIN users u ON u.id = mb.user_id WHERE u.name = 'alice')
       GROUP BY m.number ORDER BY count(*) DESC, m.number LIMIT 64`,
    );
    return rows.map((r) => `/objects/${encodeURIComponent(r.number)}/structure?levels=max&type=wt.part.WTPart`);
  });
}

async function load(server: ChildServer, connections: number, seconds: number) {
  let bad = '';
  const r = await autocannon({
    url: server.url,
    connections,
    duration: seconds,
    requests: paths.map((path) => ({
      method: 'GET' as const,
      path,
      headers: { authorization: ALICE_BASIC },
      onResponse: (status: number, body: string) => {
        if (status !== 200) bad ||= `${status} ${body.slice(0, 200)}`;
      },
    })),
  });
  if (bad || r.errors || r.timeouts || r.non2xx) {
    throw new Error(`${server.name}: ${bad || `${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`}`);
  }
  return r;
}

async function measure(server: ChildServer, ctx: BenchContext, run: RunSpec): Promise<Sample> {
  const seconds = Math.max(1, Math.round(run.seconds / 2));
  const many = await load(server, ctx.connections, seconds);
  const one = await load(server, 1, seconds);
  return { requests_per_s: many.requests.average, p50_ms: many.latency.p50, p50_1conn_ms: one.latency.p50 };
}

async function sameTrees(a: ChildServer, b: ChildServer): Promise<void> {
  for (const path of paths) {
    const [x, y] = await Promise.all(
      [a, b].map(async (s) => {
        const res = await fetch(s.url + path, { headers: { authorization: ALICE_BASIC } });
        return { status: res.status, body: await res.text() };
      }),
    );
    if (x.status !== 200 || y.status !== 200 || x.body !== y.body) {
      throw new Error(
        `${path}: ${a.name} ${x.status} ${x.body.slice(0, 200)} vs ${b.name} ${y.status} ${y.body.slice(0, 200)}`,
      );
    }
  }
}

export const structure: Benchmark = {
  name: 'structure',
  description:
    'GET /objects/<number>/structure?levels=max as alice over the 64 largest part assemblies, beside the same recursive SQL through pg',
  metrics: [
    { name: 'requests_per_s', unit: 'req/s', direction: 'higher' },
    { name: 'p50_ms', unit: 'ms', direction: 'lower' },
    { name: 'p50_1conn_ms', unit: 'ms', direction: 'lower' },
  ],
  async setup(ctx) {
    paths = await assemblies(ctx);
    if (paths.length === 0) throw new Error('no part assembly that alice can read in the benchmark data');
    baseline = await ctx.startBaseline('baselines/structure-baseline.js', { DATABASE_URL: ctx.databaseUrl });
    await sameTrees(ctx.service, baseline);
    ctx.log(`structure: ${paths.length} assemblies`);
  },
  runService: (ctx, run) => measure(ctx.service, ctx, run),
  runBaseline: (ctx, run) => measure(baseline!, ctx, run),
  async teardown() {
    await baseline?.stop();
    baseline = undefined;
  },
};
