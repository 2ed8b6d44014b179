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

  it('runs the soak benchmark once, without baseline, with no 5xx and no duplicate number', async () => {
    const report = await runBench({
      smoke: true,
      benchmarks: ['soak'],
      databaseUrl: testDatabaseUrl(),
      log: () => {},
    });
    expect(report.failed).toEqual([]);
    const [soak] = report.benchmarks;
    expect(soak).toMatchObject({
      name: 'soak',
      run: '1 run of 3 s, no baseline',
      hasBaseline: false,
      objects: 200,
      connections: 64,
    });
    const metric = (name: string) => soak.metrics.find((m) => m.name === name)!;
    for (const m of soak.metrics) {
      expect(m.baseline.samples).toEqual([]);
      expect(m.ratio).toBeNull();
    }
    expect(metric('requests').service.median).toBeGreaterThan(0);
    expect(metric('numbers_generated').service.median).toBeGreaterThan(0);
    expect(metric('query_close_p99_ms').service.median).toBeGreaterThan(0);
    for (const name of ['http_5xx', 'other_failures', 'duplicate_numbers']) {
      expect(metric(name)).toMatchObject({ status: 'pass', service: { median: 0 } });
    }
  }, 180_000);
  it('runs the events benchmarks: every write delivered in order, signed, beside the loop and without subscriptions', async () => {
    const report = await runBench({
      smoke: true,
      benchmarks: ['events_delivery', 'events_writes'],
      databaseUrl: testDatabaseUrl(),
      log: () => {},
    });
    expect(report.failed).toEqual([]);
    expect(report.benchmarks.map((r) => r.name)).toEqual(['events_delivery', 'events_writes']);
    const [delivery, writes] = report.benchmarks;
    const metric = (b: typeof delivery, name: string) => b.metrics.find((m) => m.name === name)!;
    for (const name of ['steady_p50_ms', 'steady_p99_ms', 'delivered_per_s', 'flood_p99_ms']) {
      expect(metric(delivery, name).service.median).toBeGreaterThan(0);
      expect(metric(delivery, name).baseline.samples).toHaveLength(1);
    }
    expect(metric(delivery, 'delivered_per_s').ratio).toBeGreaterThan(0);
    for (const name of ['out_of_order', 'bad_signatures']) {
      expect(metric(delivery, name)).toMatchObject({ status: 'pass', service: { median: 0 }, baseline: { median: 0 } });
    }
    expect(metric(writes, 'requests_per_s').service.median).toBeGreaterThan(0);
    expect(metric(writes, 'requests_per_s').baseline.median).toBeGreaterThan(0);
    expect(metric(writes, 'delivered_per_s').service.median).toBeGreaterThan(0);
    expect(metric(writes, 'bad_signatures')).toMatchObject({ status: 'pass', service: { median: 0 } });
  }, 300_000);
});
