/**
 * `version`: throughput and latency of the cheapest authenticated request, GET /files/version,
 * i.e. the fixed cost of our HTTP stack (NestJS, guard, auth cache, serialisation) per request.
 * The baseline is a bare Express server with the same Basic check and cache (same HTTP stack
 * underneath) that also does what the service must do per request: a request id echoed in
 * X-Request-Id and one structured log line written asynchronously, so the ratio is the overhead
 * of our code, not of Node, Express or logging. `version_unlogged` measures the same service
 * beside the baseline without the log line and request id, without target: the cost of logging
 * stays visible.
 */
import type { ChildServer } from '../harness/child-server.js';
import type { Benchmark, BenchContext, RunSpec, Sample } from '../harness/types.js';
import { ALICE_BASIC, VERSION_PATH, startVersionBaseline, versionLoad } from './common.js';

async function measure(server: ChildServer, ctx: BenchContext, run: RunSpec): Promise<Sample> {
  const r = await versionLoad(server, ctx, run.seconds);
  return { requests_per_s: r.requestsPerSec, p50_ms: r.p50Ms, p99_ms: r.p99Ms };
}

/**
 * Both sides must refuse anonymous callers and give alice the same JSON: same work. Asking as
 * alice also primes both auth caches before the warm-up (see primeAuth).
 */
async function checkSameWork(a: ChildServer, b: ChildServer, requestIds: boolean): Promise<void> {
  const answers = await Promise.all(
    [a, b].map(async (s) => {
      const anonymous = await fetch(s.url + VERSION_PATH);
      const res = await fetch(s.url + VERSION_PATH, { headers: { authorization: ALICE_BASIC } });
      const id = res.headers.get('x-request-id');
      return { name: s.name, anonymous: anonymous.status, status: res.status, id, body: await res.text() };
    }),
  );
  for (const x of answers) {
    if (x.anonymous !== 401 || x.status !== 200) {
      throw new Error(
        `${x.name}: GET ${VERSION_PATH} answered ${x.anonymous} without and ${x.status} with credentials`,
      );
    }
  }
  const withIds = answers.filter((x) => x.id !== null).map((x) => x.name);
  if (requestIds && withIds.length !== 2)
    throw new Error(`no X-Request-Id from ${answers.map((x) => x.name)} but ${withIds}`);
  if (JSON.stringify(JSON.parse(answers[0].body)) !== JSON.stringify(JSON.parse(answers[1].body))) {
    throw new Error(`the answers differ: ${answers[0].body} vs ${answers[1].body}`);
  }
}

function versionBenchmark(name: string, logged: boolean): Benchmark {
  let baseline: ChildServer | undefined;
  return {
    name,
    description: logged
      ? `GET ${VERSION_PATH} with HTTP Basic (alice), beside a bare Express server doing the same check, answer, request id and log line`
      : `GET ${VERSION_PATH} with HTTP Basic (alice), beside a bare Express server doing the same check and answer, without request id or log line`,
    metrics: [
      {
        name: 'requests_per_s',
        unit: 'req/s',
        direction: 'higher',
        ...(logged ? { target: { kind: 'ratio', min: 0.8 } as const } : {}),
      },
      { name: 'p50_ms', unit: 'ms', direction: 'lower' },
      { name: 'p99_ms', unit: 'ms', direction: 'lower' },
    ],
    async setup(ctx) {
      baseline = await startVersionBaseline(ctx, logged);
      await checkSameWork(ctx.service, baseline, logged);
    },
    runService: (ctx, run) => measure(ctx.service, ctx, run),
    runBaseline: (ctx, run) => measure(baseline!, ctx, run),
    async teardown() {
      await baseline?.stop();
      baseline = undefined;
    },
  };
}

export const version = versionBenchmark('version', true);
export const versionUnlogged = versionBenchmark('version_unlogged', false);
