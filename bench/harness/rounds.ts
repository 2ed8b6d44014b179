/**
 * Runs one benchmark: setup, a warm-up of each side, then rounds that alternate which side
 * goes first (so drift such as a warming CPU or a growing cache hurts both equally), teardown.
 * A benchmark without baseline runs the service alone.
 */
import { evaluate } from './evaluate.js';
import type { BenchContext, Benchmark, BenchmarkResult, Sample } from './types.js';

export interface RoundOptions {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
}

export async function runBenchmark(b: Benchmark, ctx: BenchContext, opts: RoundOptions): Promise<BenchmarkResult> {
  const runBaseline = b.runBaseline?.bind(b);
  const ratioTarget = b.metrics.find((m) => m.target?.kind === 'ratio');
  if (!runBaseline && ratioTarget) throw new Error(`${b.name}: ${ratioTarget.name} has a ratio target but no baseline`);
  const service: Sample[] = [];
  const baseline: Sample[] = [];
  const run = { seconds: opts.seconds, warmup: false };
  const sides = [{ label: 'service', run: () => b.runService(ctx, run), into: service }];
  if (runBaseline) sides.push({ label: 'baseline', run: () => runBaseline(ctx, run), into: baseline });
  await b.setup?.(ctx);
  try {
    if (opts.warmupSeconds > 0) {
      ctx.log(`${b.name}: warm-up`);
      await b.runService(ctx, { seconds: opts.warmupSeconds, warmup: true });
      await runBaseline?.(ctx, { seconds: opts.warmupSeconds, warmup: true });
    }
    for (let r = 0; r < opts.rounds; r++) {
      const order = r % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        const sample = await side.run();
        side.into.push(sample);
        ctx.log(`${b.name}: round ${r + 1}/${opts.rounds} ${side.label} ${formatSample(sample)}`);
      }
    }
  } finally {
    await b.teardown?.(ctx);
  }
  return {
    name: b.name,
    description: b.description,
    run: describeRun(opts.rounds, opts.seconds, Boolean(runBaseline)),
    hasBaseline: Boolean(runBaseline),
    metrics: b.metrics.map((m) => {
      const pick = (samples: Sample[]) => samples.map((s) => s[m.name]).filter((v) => typeof v === 'number');
      return evaluate(m, pick(service), pick(baseline));
    }),
  };
}

/** "3 rounds of 10 s per side", "1 run of 60 s, no baseline". */
export function describeRun(rounds: number, seconds: number, hasBaseline = true): string {
  const times = rounds === 1 ? `1 run of ${seconds} s` : `${rounds} rounds of ${seconds} s`;
  return hasBaseline ? `${times} per side` : `${times}, no baseline`;
}

function formatSample(s: Sample): string {
  return Object.entries(s)
    .map(([k, v]) => `${k}=${Number.isInteger(v) ? v : v.toFixed(2)}`)
    .join(' ');
}
