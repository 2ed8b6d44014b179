import { runBench } from '../../bench/run.js';
import { testDatabaseUrl } from '../helpers/test-database.js';

/**
 * Proves the benchmark harness works end to end (generator, service and baseline start-up,
 * load, report) on a tiny dataset with one short round. It asserts no timing: a missed target
 * is a result, not a failure.
 */
describe('benchmark harness (smoke run)', () => {
  it('runs the version and memory benchmarks beside their baselines', async () => {
    const lines: string[] = [];
    const report = await runBench({
      smoke: true,
      benchmarks: ['version', 'memory'],
      databaseUrl: testDatabaseUrl(),
      log: (line) => lines.push(line),
    });
    expect(report.failed).toEqual([]);
    expect(report.settings).toMatchObject({ smoke: true, rounds: 1 });
    expect(report.benchmarks.map((r) => r.name)).toEqual(['version', 'memory']);
    for (const r of report.benchmarks) {
      expect(r.error).toBeUndefined();
      expect(r.metrics.length).toBeGreaterThan(0);
      for (const m of r.metrics) {
        expect(m.service.median).toBeGreaterThan(0);
        expect(m.baseline.samples.length).toBe(1);
      }
    }
    expect(lines.join('\n')).toContain('smoke run: generating 200 objects');
  }, 180_000);
});
