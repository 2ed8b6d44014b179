/**
 * Runs one benchmark: setup, a warm-up of each side, then rounds that alternate which side
 * goes first (so drift such as a warming CPU or a growing cache hurts both equally), teardown.
 */
import { evaluate } from './evaluate.js';
import type { BenchContext, Benchmark, BenchmarkResult, Sample } from './types.js';

export interface RoundOptions {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
}

export async function runBenchmark(b: Benchmark, ctx: BenchContext, opts: RoundOptions): Promise<BenchmarkResult> {
  const service: Sample[] = [];
  const baseline: Sample[] = [];
  const sides = [
    { label: 'service', run: () => b.runService(ctx, { seconds: opts.seconds, warmup: false }), into: service },
    { label: 'baseline', run: () => b.runBaseline(ctx, { seconds: opts.seconds, warmup: false }), into: baseline },
  ];
  await b.setup?.(ctx);
  try {
    if (opts.warmupSeconds > 0) {
      ctx.log(`${b.name}: warm-up`);
      await b.runService(ctx, { seconds: opts.warmupSeconds, warmup: true });
      await b.runBaseline(ctx, { seconds: opts.warmupSeconds, warmup: true });
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
    metrics: b.metrics.map((m) => {
      const pick = (samples: Sample[]) => samples.map((s) => s[m.name]).filter((v) => typeof v === 'number');
      return evaluate(m, pick(service), pick(baseline));
    }),
  };
}

function formatSample(s: Sample): string {
  return Object.entries(s)
    .map(([k, v]) => `${k}=${Number.isInteger(v) ? v : v.toFixed(2)}`)
    .join(' ');
}
