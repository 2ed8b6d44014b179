/**
 * npm run bench [-- <name>…] [--rounds N] [--duration S] [--connections C] [--database-url URL]
 *                            [--smoke] [--no-docs]
 * Starts the production build of the service against the benchmark database, runs the selected
 * benchmarks beside their baselines and reports (see bench/README.md). runBench() is the same
 * for tests: it throws on failures (after running and reporting the benchmarks that did not
 * fail), but a missed target is a result, not a failure.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { applyMigrations, projectRoot } from '../src/prisma/migrate.js';
import { BENCHMARKS } from './benchmarks/index.js';
import { generateDataset } from './data/dataset.js';
import { startServer, type ChildServer } from './harness/child-server.js';
import { runIfEntry } from './harness/entry.js';
import { benchDatabaseUrl, databaseName, dropDatabase, redact, withClient, withDatabase } from './harness/database.js';
import { consoleTable, machineInfo, updateDocs, writeJson } from './harness/report.js';
import { runBenchmark, type RoundOptions } from './harness/rounds.js';
import type { BenchContext, BenchReport, Benchmark, BenchmarkResult } from './harness/types.js';

export interface BenchOptions {
  /** Benchmark names; all when empty. */
  benchmarks?: string[];
  rounds?: number;
  /** Seconds of load per side and round. */
  duration?: number;
  connections?: number;
  databaseUrl?: string;
  /** ~200 objects in a fresh database pdm_bench_smoke_<pid>, one 1-second round, dropped after. */
  smoke?: boolean;
  /** Rewrite the results section of docs/benchmarks.md (default: yes, except for smoke runs). */
  updateDocs?: boolean;
  /** Default bench/results/latest.json (smoke runs: bench/results/smoke.json). */
  resultsFile?: string;
  /** Run `npm run build` first; otherwise the existing dist/ is used. */
  build?: boolean;
  log?: (line: string) => void;
}

const SMOKE_OBJECTS = 200;

export async function runBench(options: BenchOptions = {}): Promise<BenchReport> {
  const log = options.log ?? ((line: string) => console.log(line));
  const smoke = Boolean(options.smoke);
  const rounds = options.rounds ?? (smoke ? 1 : 3);
  const seconds = options.duration ?? (smoke ? 1 : 10);
  const connections = options.connections ?? 32;
  if (![rounds, seconds, connections].every((n) => Number.isSafeInteger(n) && n > 0)) {
    throw new Error('rounds, duration and connections must be positive whole numbers');
  }
  const selected = selectBenchmarks(options.benchmarks ?? []);
  const root = projectRoot();
  if (options.build) await run('npm', ['run', 'build'], root);
  const serviceJs = join(root, 'dist', 'src', 'main.js');
  if (!existsSync(serviceJs) || !existsSync(join(root, 'dist', 'bench', 'run.js'))) {
    throw new Error('no build in dist/: run `npm run build` first (or pass build: true)');
  }

  const url = smoke
    ? withDatabase(benchDatabaseUrl(options.databaseUrl), `pdm_bench_smoke_${process.pid}`)
    : benchDatabaseUrl(options.databaseUrl);
  const results: BenchmarkResult[] = [];
  // A smoke run (e.g. from a test) must not overwrite the server logs of a real run.
  const logDir = smoke ? join(tmpdir(), `pdm_bench_smoke_${process.pid}`) : join(root, 'bench', 'results');
  const loadBefore = loadavg()[0];
  let objects: number;
  let report: BenchReport;
  try {
    if (smoke) {
      log(`smoke run: generating ${SMOKE_OBJECTS} objects into ${redact(url)}`);
      await generateDataset({ objects: SMOKE_OBJECTS, seed: 'smoke', databaseUrl: url });
    }
    objects = await checkBenchDatabase(url, root, log);
    if (loadBefore > cpus().length / 2) {
      log(`warning: load average ${loadBefore.toFixed(1)} on ${cpus().length} cores: other work will skew the results`);
    }
    const warmupSeconds = smoke ? 1 : Math.max(2, Math.round(seconds / 3));
    const plan = (b: Benchmark): RoundOptions =>
      // A single-run benchmark (the soak) has its own length; --duration still rules.
      b.single
        ? {
            rounds: 1,
            seconds: options.duration ?? (smoke ? b.single.smokeSeconds : b.single.seconds),
            warmupSeconds: 0,
          }
        : { rounds, seconds, warmupSeconds };
    const session = { root, serviceJs, logDir, connections, log, plan };
    // Benchmarks designed for another dataset size run on a database of that size (not in smoke runs).
    const main = selected.filter((b) => smoke || b.objects === undefined);
    if (main.length) results.push(...(await runOnDatabase(url, objects, main, session)));
    for (const size of [...new Set(selected.map((b) => (smoke ? undefined : b.objects)))]) {
      if (size === undefined) continue;
      const sizedUrl = withDatabase(url, `${databaseName(url)}_${size}`);
      const sized = await prepareSizedDatabase(sizedUrl, size, root, log);
      results.push(
        ...(await runOnDatabase(
          sizedUrl,
          sized,
          selected.filter((b) => b.objects === size),
          session,
          `-${size}`,
        )),
      );
    }
    report = {
      date: new Date().toISOString(),
      machine: await machineInfo(url, loadBefore),
      settings: { rounds, seconds, connections, smoke, objects },
      benchmarks: results,
      targetsMet: results.every((b) => b.metrics.every((m) => m.status !== 'fail')),
      failed: results.filter((b) => b.error !== undefined).map((b) => b.name),
    };
  } finally {
    if (smoke) await dropDatabase(url);
  }

  log('\n' + consoleTable(report));
  const resultsFile = options.resultsFile ?? join(root, 'bench', 'results', smoke ? 'smoke.json' : 'latest.json');
  writeJson(resultsFile, report);
  log(`\nresults: ${relative(root, resultsFile)}`);
  if (report.failed.length) {
    // Results are written for diagnosis, but a broken run does not replace the documented one.
    throw new Error(
      `benchmarks failed: ${report.failed.join(', ')} (details above and in ${relative(root, resultsFile)})`,
    );
  }
  if (options.updateDocs ?? !smoke) {
    updateDocs(join(root, 'docs', 'benchmarks.md'), report);
    log('updated docs/benchmarks.md');
  }
  log(report.targetsMet ? 'every target was met' : 'some targets were missed');
  return report;
}

interface Session {
  root: string;
  serviceJs: string;
  logDir: string;
  connections: number;
  log: (line: string) => void;
  plan: (b: Benchmark) => RoundOptions;
}

/** Starts the service on one database and runs the given benchmarks against it. */
async function runOnDatabase(
  url: string,
  objects: number,
  benchmarks: Benchmark[],
  s: Session,
  /** Tells the server logs of a second database from those of the main one. */
  suffix = '',
): Promise<BenchmarkResult[]> {
  const { root, logDir, log } = s;
  log(`starting the service (${relative(root, s.serviceJs)}) against ${redact(url)}: ${objects} business objects`);
  const service = await startServer({
    name: 'service',
    script: s.serviceJs,
    // The schema was migrated by bench:data (checked above); skipping it saves the start-up.
    // One benchmark user drives every connection: the per-user report limit would measure itself.
    env: {
      DATABASE_URL: url,
      NODE_ENV: 'production',
      MIGRATE_ON_START: 'false',
      SEED_DEMO_DATA: 'false',
      REPORT_MAX_CONCURRENT_PER_USER: '0',
      // The events benchmarks deliver webhooks to a receiver in the benchmark process.
      EVENTS_WEBHOOK_ALLOW: '127.0.0.1',
    },
    readyPath: '/files/version',
    // Its request log is part of production work: written to a file, as in a deployment.
    logFile: join(logDir, `service${suffix}.log`),
  });
  const baselines: ChildServer[] = [];
  const ctx: BenchContext = {
    databaseUrl: url,
    service,
    connections: s.connections,
    log,
    async startBaseline(script, env = {}) {
      const b = await startServer({
        name: `baseline ${script}`,
        script: join(root, 'dist', 'bench', script),
        env: { DATABASE_URL: url, NODE_ENV: 'production', ...env },
        readyPath: '/',
        logFile: join(logDir, basename(script).replace(/\.js$/, `${suffix}.log`)),
      });
      baselines.push(b);
      return b;
    },
  };
  const results: BenchmarkResult[] = [];
  try {
    for (const b of benchmarks) {
      log(`${b.name}: ${b.description}`);
      try {
        const connections = b.connections ?? s.connections;
        results.push({ ...(await runBenchmark(b, { ...ctx, connections }, s.plan(b))), objects, connections });
      } catch (e) {
        // One broken benchmark must not cost the results of the others: record it, go on.
        const error = e instanceof Error ? e.message : String(e);
        log(`${b.name} FAILED: ${error}`);
        results.push({ name: b.name, description: b.description, objects, metrics: [], error });
      }
    }
  } finally {
    await Promise.all(baselines.map((b) => b.stop()));
    await service.stop();
  }
  return results;
}

/**
 * The database of a benchmark designed for `size` objects, generated (default seed) when it is
 * missing or holds another amount; the business objects it holds.
 */
async function prepareSizedDatabase(url: string, size: number, root: string, log: (line: string) => void) {
  const held = await checkBenchDatabase(url, root, log).catch(() => -1);
  // The benchmarks add a few objects of their own: a small difference is the same dataset.
  if (Math.abs(held - size) <= Math.max(100, size / 100)) return held;
  log(`generating ${size} objects into ${redact(url)}`);
  await generateDataset({ objects: size, databaseUrl: url, reset: true });
  return checkBenchDatabase(url, root, log);
}

function selectBenchmarks(names: string[]) {
  const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
  if (unknown.length) {
    throw new Error(`unknown benchmark ${unknown.join(', ')} (available: ${BENCHMARKS.map((b) => b.name).join(', ')})`);
  }
  return names.length ? BENCHMARKS.filter((b) => names.includes(b.name)) : BENCHMARKS;
}

/** The database must exist, be migrated (pending migrations are applied) and hold the demo users. */
async function checkBenchDatabase(url: string, root: string, log: (line: string) => void): Promise<number> {
  const prepare = 'run `npm run bench:data -- --objects 1000000 --reset` to prepare it';
  const migrations = readdirSync(join(root, 'prisma', 'migrations'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, 'prisma', 'migrations', d.name, 'migration.sql')))
    .map((d) => d.name);
  try {
    return await withClient(url, async (c) => {
      const applied = await c.query<{ name: string }>(
        'SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      );
      const pending = migrations.filter((m) => !applied.rows.some((r) => r.name === m));
      if (pending.length) {
        // Migrations newer than the data: apply them here, since the service is started without.
        log(`applying ${pending.length} pending migration(s) to the benchmark database`);
        await applyMigrations(url);
      }
      const users = await c.query("SELECT 1 FROM users WHERE name = 'alice'");
      if (!users.rowCount) throw new Error(`the benchmark database holds no benchmark data: ${prepare}`);
      // The generated objects: the change objects the reports benchmark adds (bench/data/changes.ts,
      // some 2 % of the parts) would otherwise make the next run see another size and regenerate.
      const held = await c.query<{ n: string }>(
        "SELECT count(*) AS n FROM masters WHERE class NOT LIKE 'wt.change2.%'",
      );
      return Number(held.rows[0].n);
    });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === '3D000' || code === '42P01')
      throw new Error(`the benchmark database ${redact(url)} is not prepared: ${prepare}`);
    throw e;
  }
}

function run(cmd: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (exit ${code})`)),
    );
  });
}

function positiveInt(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) throw new UsageError(`${name} must be a positive whole number`);
  return Number(raw);
}

class UsageError extends Error {}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      'database-url': { type: 'string' },
      smoke: { type: 'boolean' },
      'no-docs': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(
      `usage: npm run bench -- [${BENCHMARKS.map((b) => b.name).join('|')} …] [--rounds N] [--duration S] ` +
        '[--connections C] [--database-url URL] [--smoke] [--no-docs]',
    );
    return 0;
  }
  await runBench({
    benchmarks: positionals,
    rounds: positiveInt(values.rounds, '--rounds'),
    duration: positiveInt(values.duration, '--duration'),
    connections: positiveInt(values.connections, '--connections'),
    databaseUrl: values['database-url'],
    smoke: values.smoke,
    updateDocs: values['no-docs'] ? false : undefined,
  });
  return 0;
}

runIfEntry(import.meta.url, main, (e) => {
  console.error(`bench failed: ${e instanceof Error ? e.message : String(e)}`);
  return e instanceof UsageError ? 2 : 1;
});
