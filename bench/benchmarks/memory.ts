/**
 * `memory`: resident memory of the service process when idle (after start-up, before any
 * load) and its peak under the `version` load, read from /proc (VmRSS sampled, VmHWM reset
 * before each run). The bare Express baseline shows what Node and Express alone take.
 */
import type { ChildServer } from '../harness/child-server.js';
import { resetPeak, RssSampler } from '../harness/proc-stats.js';
import type { Benchmark, BenchContext, RunSpec, Sample } from '../harness/types.js';
import { primeAuth, startVersionBaseline, versionLoad } from './common.js';

let baseline: ChildServer | undefined;

async function measure(server: ChildServer, ctx: BenchContext, run: RunSpec): Promise<Sample> {
  resetPeak(server.pid);
  const sampler = new RssSampler(server.pid);
  const peak = await versionLoad(server, ctx, run.seconds).then(
    () => sampler.stop(),
    (e: unknown) => {
      sampler.stop();
      throw e;
    },
  );
  return { idle_rss_mib: server.idleRssMb, peak_rss_mib: peak };
}

export const memory: Benchmark = {
  name: 'memory',
  description: 'resident memory (MiB) of the process idle and at its peak under the version load',
  metrics: [
    { name: 'idle_rss_mib', unit: 'MiB', direction: 'lower' },
    { name: 'peak_rss_mib', unit: 'MiB', direction: 'lower' },
  ],
  async setup(ctx) {
    baseline = await startVersionBaseline(ctx);
    await primeAuth(ctx.service);
    await primeAuth(baseline);
  },
  runService: (ctx, run) => measure(ctx.service, ctx, run),
  runBaseline: (ctx, run) => measure(baseline!, ctx, run),
  async teardown() {
    await baseline?.stop();
    baseline = undefined;
  },
};
