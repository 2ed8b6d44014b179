/**
 * `version`: throughput and latency of the cheapest authenticated request, GET /files/version,
 * i.e. the fixed cost of our HTTP stack (NestJS, guard, auth cache, serialisation) per request.
 * The baseline is a bare Express server with the same Basic check and cache (same HTTP stack
 * underneath), so the ratio is the overhead of our code, not of Node or Express.
 */
import type { ChildServer } from '../harness/child-server.js';
import type { Benchmark, BenchContext, RunSpec, Sample } from '../harness/types.js';
import { ALICE_BASIC, VERSION_PATH, startVersionBaseline, versionLoad } from './common.js';

let baseline: ChildServer | undefined;

async function measure(server: ChildServer, ctx: BenchContext, run: RunSpec): Promise<Sample> {
  const r = await versionLoad(server, ctx, run.seconds);
  return { requests_per_s: r.requestsPerSec, p50_ms: r.p50Ms, p99_ms: r.p99Ms };
}

/**
 * Both sides must refuse anonymous callers and give alice the same JSON: same work. Asking as
 * alice also primes both auth caches before the warm-up (see primeAuth).
 */
async function checkSameWork(a: ChildServer, b: ChildServer): Promise<void> {
  const answers = await Promise.all(
    [a, b].map(async (s) => {
      const anonymous = await fetch(s.url + VERSION_PATH);
      const res = await fetch(s.url + VERSION_PATH, { headers: { authorization: ALICE_BASIC } });
      return { name: s.name, anonymous: anonymous.status, status: res.status, body: await res.text() };
    }),
  );
  for (const x of answers) {
    if (x.anonymous !== 401 || x.status !== 200) {
      throw new Error(
        `${x.name}: GET ${VERSION_PATH} answered ${x.anonymous} without and ${x.status} with credentials`,
      );
    }
  }
  if (JSON.stringify(JSON.parse(answers[0].body)) !== JSON.stringify(JSON.parse(answers[1].body))) {
    throw new Error(`the answers differ: ${answers[0].body} vs ${answers[1].body}`);
  }
}

export const version: Benchmark = {
  name: 'version',
  description: `GET ${VERSION_PATH} with HTTP Basic (alice), beside a bare Express server doing the same check and answer`,
  metrics: [
    { name: 'requests_per_s', unit: 'req/s', direction: 'higher', target: { kind: 'ratio', min: 0.8 } },
    { name: 'p50_ms', unit: 'ms', direction: 'lower' },
    { name: 'p99_ms', unit: 'ms', direction: 'lower' },
  ],
  async setup(ctx) {
    baseline = await startVersionBaseline(ctx);
    await checkSameWork(ctx.service, baseline);
  },
  runService: (ctx, run) => measure(ctx.service, ctx, run),
  runBaseline: (ctx, run) => measure(baseline!, ctx, run),
  async teardown() {
    await baseline?.stop();
    baseline = undefined;
  },
};
