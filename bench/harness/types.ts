/**
 * The contract between the runner and the benchmark modules in bench/benchmarks/.
 * A benchmark measures the service and a baseline doing the same work, round after round;
 * the runner alternates the two, takes medians and compares them with the metric targets.
 */
import type { ChildServer } from './child-server.js';

export type Direction = 'higher' | 'lower';

/** When a metric passes: a bound on service ÷ baseline, or on the service's own value. */
export type Target = { kind: 'ratio'; min?: number; max?: number } | { kind: 'absolute'; min?: number; max?: number };

export interface MetricSpec {
  /** Key in the samples returned by runService and runBaseline, e.g. "requests_per_s". */
  name: string;
  unit: string;
  direction: Direction;
  /** No target: the metric is reported for information and never fails. */
  target?: Target;
}

/** One round's measurements, by metric name. */
export type Sample = Record<string, number>;

export interface RunSpec {
  seconds: number;
  /** A warm-up run: its sample is discarded (JIT, caches, connection pools). */
  warmup: boolean;
}

export interface BenchContext {
  /** The benchmark database, already filled by bench:data (or the smoke dataset). */
  databaseUrl: string;
  /** The service under test: the production build, started once for all benchmarks. */
  service: ChildServer;
  /** Concurrent connections for load generators. */
  connections: number;
  /** Starts a compiled baseline server (path relative to bench/, e.g. "baselines/x.js"). */
  startBaseline(script: string, env?: Record<string, string>): Promise<ChildServer>;
  log(line: string): void;
}

export interface Benchmark {
  name: string;
  description: string;
  metrics: MetricSpec[];
  /**
   * One run of this length instead of a warm-up and rounds (a soak test): `--duration`, when
   * given, replaces `seconds`, and smoke runs take `smokeSeconds`.
   */
  single?: { seconds: number; smokeSeconds: number };
  /**
   * The dataset size the benchmark is designed for, when the main one does not suit it: the
   * runner runs it on a database of its own, the main database's name + `_<objects>`,
   * generated (default seed) when missing. Smoke runs ignore it.
   */
  objects?: number;
  /** Concurrent connections of its own, instead of `--connections` (the soak's 64). */
  connections?: number;
  setup?(ctx: BenchContext): Promise<void>;
  runService(ctx: BenchContext, run: RunSpec): Promise<Sample>;
  /**
   * Absent when nothing fair exists to compare with: the service is measured alone, its targets
   * must then be absolute, and the report says "no baseline".
   */
  runBaseline?(ctx: BenchContext, run: RunSpec): Promise<Sample>;
  teardown?(ctx: BenchContext): Promise<void>;
}

export type Status = 'pass' | 'fail' | 'info';

export interface MetricResult {
  name: string;
  unit: string;
  direction: Direction;
  service: { median: number; samples: number[] };
  baseline: { median: number; samples: number[] };
  /** service ÷ baseline, or null when the baseline median is 0. */
  ratio: number | null;
  target: string;
  status: Status;
}

export interface BenchmarkResult {
  name: string;
  description: string;
  /** How it was run, e.g. "3 rounds of 10 s per side" or "1 run of 60 s, no baseline". */
  run?: string;
  /** False for a benchmark without baseline (its baseline medians are NaN). */
  hasBaseline?: boolean;
  /** Business objects in the database it ran on. */
  objects?: number;
  /** Concurrent connections it was given. */
  connections?: number;
  metrics: MetricResult[];
  /** Why the benchmark failed (it threw); its metrics are then empty. */
  error?: string;
}

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  postgres: string;
  /** 1-minute load average before and after the run: other work on the machine skews results. */
  loadAverage: { before: number; after: number };
}

export interface BenchReport {
  date: string;
  machine: MachineInfo;
  settings: { rounds: number; seconds: number; connections: number; smoke: boolean; objects: number };
  benchmarks: BenchmarkResult[];
  /** Every metric with a target met it. */
  targetsMet: boolean;
  /** Names of the benchmarks that failed (threw). */
  failed: string[];
}
