/**
 * Change events (docs/events.md), two benchmarks on the service as the runner starts it (with
 * `EVENTS_WEBHOOK_ALLOW=127.0.0.1`), delivering webhooks to a receiver in this process
 * (events-receiver.ts). The write is `POST /numbers/generate` with count=1 as alice in a
 * container of the benchmark's own: cheap, audited, one event per answer, and the number it
 * hands out names its event (detail.first).
 *
 * - `events_delivery`: one subscription (admin, the container's `numbers.generate`). Writes at a
 *   steady 20/s for half the round, then as fast as `--connections` allow for the other half;
 *   each phase waits until every event arrived. Commit-to-delivery latency of an event: when the
 *   receiver had its body, less when its write's answer had arrived here. The service answers
 *   after the commit, so this leaves out the answer's way back (a fraction of a millisecond at
 *   20/s, more under load) and cannot start before the event could be seen. Delivered events/s:
 *   the events of the flood ÷ the time from the first write's answer to the last delivery.
 *   Baseline: the same CloudEvent bodies, in the order the service delivered them, each released
 *   when its write was answered in the service's round (the same offsets) and POSTed, signed the
 *   same way, by one in-order loop (LoopSender) to the same receiver: what delivering the same
 *   bytes at the same moments costs with nothing else to do.
 * - `events_writes`: the write's requests/s at `--connections` with 10 active webhook
 *   subscriptions matching every write (service side) beside none (baseline side), the same
 *   service, alternating. Target: at least 0.9×.
 */
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildServer } from '../harness/child-server.js';
import type { Benchmark, BenchContext, RunSpec, Sample } from '../harness/types.js';
import { withClient } from '../harness/database.js';
import { ALICE_BASIC, primeAuth } from './common.js';
import {
  EventsReceiver,
  LoopSender,
  SUBSCRIPTION_PREFIX,
  answerNumber,
  createEventsContainer,
  generatePath,
  quantile,
  removeEventsContainer,
  subscribe,
  unsubscribe,
  type Delivery,
} from './events-receiver.js';

const CONTAINER = 'bench-events';
/** Writes per second of the steady phase: well below what either side can do. */
const STEADY_RATE = 20;
/** The longest wait for a phase's events after its last write. */
const DELIVERY_TIMEOUT_MS = 180_000;
const SUBSCRIPTIONS = 10;

let receiver: EventsReceiver | undefined;
let subscription: number | undefined;
let loop: LoopSender | undefined;

/** Writes of one phase: when each number's answer arrived (performance.now()). */
interface Written {
  start: number;
  answers: Map<string, number>;
}

/** One event stream the service delivered, for the baseline to replay: bodies and their writes' offsets. */
interface Stream {
  bodies: string[];
  offsets: number[];
}

let lastStreams: { steady: Stream; flood: Stream } | undefined;

async function write(server: ChildServer): Promise<string> {
  const res = await fetch(server.url + generatePath(CONTAINER), {
    method: 'POST',
    headers: { authorization: ALICE_BASIC },
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST /numbers/generate answered ${res.status} ${text.slice(0, 200)}`);
  return answerNumber(text);
}

/** `rate` writes a second for `seconds`, each started on time whether or not the one before was answered. */
async function steadyWrites(server: ChildServer, seconds: number, rate: number): Promise<Written> {
  const n = Math.max(1, Math.round(seconds * rate));
  const start = performance.now();
  const answers = new Map<string, number>();
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(write(server).then((number) => answers.set(number, performance.now())));
  }
  await Promise.all(pending);
  return { start, answers };
}

/** As many writes as `connections` allow for `seconds` (autocannon), every answer's number kept. */
async function floodWrites(server: ChildServer, connections: number, seconds: number) {
  const answers = new Map<string, number>();
  let bad = '';
  const start = performance.now();
  const r = await autocannon({
    url: server.url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: generatePath(CONTAINER),
        headers: { authorization: ALICE_BASIC },
        onResponse: (status: number, body: string) => {
          if (status === 200) answers.set(answerNumber(body), performance.now());
          else bad ||= `${status} ${body.slice(0, 200)}`;
        },
      },
    ],
  });
  if (bad || r.errors || r.timeouts || r.non2xx)
    throw new Error(`writes: ${bad || `${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`}`);
  return { written: { start, answers }, requestsPerSec: r.requests.average, p99Ms: r.latency.p99 };
}

/**
 * Waits for the events of `numbers` on `path`; their deliveries (the first of each), in arrival
 * order. Others are left out: a write the load generator stopped waiting for at the end of its
 * run was still committed, and its event still comes.
 */
async function delivered(path: string, numbers: ReadonlySet<string>): Promise<Delivery[]> {
  if (!(await receiver!.waitFor(path, numbers, DELIVERY_TIMEOUT_MS)))
    throw new Error(`not every one of ${numbers.size} events arrived within ${DELIVERY_TIMEOUT_MS / 1000} s`);
  const seen = new Set<string>();
  return receiver!.take(path).filter((d) => numbers.has(d.number) && !seen.has(d.number) && seen.add(d.number));
}

/** Deliveries whose sequence is not above the one before (commit order broken). */
function outOfOrder(ds: Delivery[]): number {
  return ds.filter((d, i) => i > 0 && d.sequence <= ds[i - 1].sequence).length;
}

/** Latencies (receipt − commit) sorted, and events/s from the first commit to the last receipt. */
function measureStream(ds: Delivery[], committedAt: (d: Delivery) => number) {
  const latencies = ds.map((d) => d.at - committedAt(d)).sort((a, b) => a - b);
  const first = Math.min(...ds.map(committedAt));
  const last = Math.max(...ds.map((d) => d.at));
  return {
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    perSec: ds.length / ((last - first) / 1000),
  };
}

async function deliverySample(ctx: BenchContext, run: RunSpec): Promise<Sample> {
  const phase = Math.max(1, run.seconds / 2);
  const path = '/delivery';
  const bad = receiver!.badSignatures;

  const steady = await steadyWrites(ctx.service, phase, STEADY_RATE);
  const steadyDs = await delivered(path, new Set(steady.answers.keys()));
  const s = measureStream(steadyDs, (d) => steady.answers.get(d.number)!);

  const flood = await floodWrites(ctx.service, ctx.connections, Math.max(1, Math.round(phase)));
  const floodDs = await delivered(path, new Set(flood.written.answers.keys()));
  const f = measureStream(floodDs, (d) => flood.written.answers.get(d.number)!);

  const stream = (ds: Delivery[], w: Written): Stream => ({
    bodies: ds.map((d) => d.body),
    offsets: ds.map((d) => w.answers.get(d.number)! - w.start),
  });
  lastStreams = { steady: stream(steadyDs, steady), flood: stream(floodDs, flood.written) };
  return {
    steady_p50_ms: s.p50,
    steady_p99_ms: s.p99,
    delivered_per_s: f.perSec,
    flood_p50_ms: f.p50,
    flood_p99_ms: f.p99,
    writes_per_s: flood.requestsPerSec,
    out_of_order: outOfOrder(steadyDs) + outOfOrder(floodDs),
    bad_signatures: receiver!.badSignatures - bad,
  };
}

/** The stream again from the loop: each body released at its write's offset, sent in order. */
async function replay(stream: Stream, path: string) {
  const start = performance.now();
  const due = new Map<string, number>();
  for (let i = 0; i < stream.bodies.length; i++) {
    const at = start + stream.offsets[i];
    const wait = at - performance.now();
    if (wait > 0) await sleep(wait);
    due.set((JSON.parse(stream.bodies[i]) as { data: { detail: { first: string } } }).data.detail.first, at);
    await loop!.send(stream.bodies[i]);
  }
  const ds = await delivered(path, new Set(due.keys()));
  return { ds, m: measureStream(ds, (d) => due.get(d.number)!) };
}

async function loopSample(): Promise<Sample> {
  if (!lastStreams) throw new Error('no service round yet: the baseline replays its events');
  const bad = receiver!.badSignatures;
  const steady = await replay(lastStreams.steady, '/baseline');
  const flood = await replay(lastStreams.flood, '/baseline');
  return {
    steady_p50_ms: steady.m.p50,
    steady_p99_ms: steady.m.p99,
    delivered_per_s: flood.m.perSec,
    flood_p50_ms: flood.m.p50,
    flood_p99_ms: flood.m.p99,
    out_of_order: outOfOrder(steady.ds) + outOfOrder(flood.ds),
    bad_signatures: receiver!.badSignatures - bad,
  };
}

export const eventsDelivery: Benchmark = {
  name: 'events_delivery',
  description:
    'webhook delivery of POST /numbers/generate events to a local receiver: commit-to-delivery latency at 20 writes/s and under a flood of writes, delivered events/s',
  metrics: [
    { name: 'steady_p50_ms', unit: 'ms', direction: 'lower' },
    { name: 'steady_p99_ms', unit: 'ms', direction: 'lower' },
    { name: 'delivered_per_s', unit: 'events/s', direction: 'higher' },
    { name: 'flood_p50_ms', unit: 'ms', direction: 'lower' },
    { name: 'flood_p99_ms', unit: 'ms', direction: 'lower' },
    { name: 'writes_per_s', unit: 'req/s', direction: 'higher' },
    { name: 'out_of_order', unit: 'events', direction: 'lower', target: { kind: 'absolute', max: 0 } },
    { name: 'bad_signatures', unit: 'events', direction: 'lower', target: { kind: 'absolute', max: 0 } },
  ],
  async setup(ctx) {
    await createEventsContainer(ctx.databaseUrl, CONTAINER);
    await primeAuth(ctx.service);
    receiver = await EventsReceiver.start();
    loop = new LoopSender(new URL(receiver.url('/baseline')));
    subscription = await subscribe(ctx.service, `${SUBSCRIPTION_PREFIX}delivery`, CONTAINER, receiver.url('/delivery'));
  },
  runService: deliverySample,
  runBaseline: () => loopSample(),
  async teardown(ctx) {
    if (subscription !== undefined) await unsubscribe(ctx.service, subscription).catch(() => undefined);
    loop?.close();
    await receiver?.close();
    await removeEventsContainer(ctx.databaseUrl, CONTAINER);
    receiver = loop = subscription = lastStreams = undefined;
  },
};

/** CPU time the process has used, user and system, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time (ms) of the database's server processes serving `databaseUrl` (its backends now). */
async function databaseCpuMs(databaseUrl: string): Promise<Map<number, number>> {
  const pids = await withClient(databaseUrl, async (c) => {
    const { rows } = await c.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return rows.map((r) => r.pid);
  });
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      cpu.set(pid, cpuMs(pid));
    } catch {
      // gone meanwhile, or another machine's server: not counted
    }
  }
  return cpu;
}

/** CPU the backends of `before` used since (those that ended meanwhile are left out). */
async function databaseCpuSince(before: Map<number, number>): Promise<number> {
  let sum = 0;
  for (const [pid, ms] of before) {
    try {
      sum += cpuMs(pid) - ms;
    } catch {
      // ended
    }
  }
  return sum;
}

/** The write load for `seconds`, with `subscriptions` active subscriptions matching every write. */
async function writesSample(ctx: BenchContext, run: RunSpec, subscriptions: number): Promise<Sample> {
  const ids: number[] = [];
  for (let i = 0; i < subscriptions; i++) {
    ids.push(
      await subscribe(ctx.service, `${SUBSCRIPTION_PREFIX}writes-${i}`, CONTAINER, receiver!.url(`/writes/${i}`)),
    );
  }
  const bad = receiver!.badSignatures;
  const cpu = cpuMs(ctx.service.pid);
  const own = process.cpuUsage();
  const db = await databaseCpuMs(ctx.databaseUrl);
  const load = await floodWrites(ctx.service, ctx.connections, run.seconds);
  const writes = load.written.answers.size;
  const cpuPerWrite = (cpuMs(ctx.service.pid) - cpu) / writes;
  const ownUsage = process.cpuUsage(own);
  const benchPerWrite = (ownUsage.user + ownUsage.system) / 1000 / writes;
  const dbPerWrite = (await databaseCpuSince(db)) / writes;
  const arrived = Array.from({ length: subscriptions }, (_, i) => receiver!.count(`/writes/${i}`));
  for (const id of ids) await unsubscribe(ctx.service, id);
  // Loops stop at their next step; the service looks whether any subscription is active once a
  // poll (EVENTS_POLL_MS, 1 s by default), so the next run starts after that.
  await sleep(1500);
  for (let i = 0; i < subscriptions; i++) receiver!.take(`/writes/${i}`);
  const sum = arrived.reduce((a, b) => a + b, 0);
  return {
    requests_per_s: load.requestsPerSec,
    p99_ms: load.p99Ms,
    service_cpu_ms_per_write: cpuPerWrite,
    db_cpu_ms_per_write: dbPerWrite,
    bench_cpu_ms_per_write: benchPerWrite,
    ...(subscriptions ? { delivered_per_s: sum / run.seconds, bad_signatures: receiver!.badSignatures - bad } : {}),
  };
}

export const eventsWrites: Benchmark = {
  name: 'events_writes',
  description: `POST /numbers/generate requests/s with ${SUBSCRIPTIONS} active webhook subscriptions matching every write, beside none, on the same service`,
  metrics: [
    { name: 'requests_per_s', unit: 'req/s', direction: 'higher', target: { kind: 'ratio', min: 0.9 } },
    { name: 'p99_ms', unit: 'ms', direction: 'lower' },
    { name: 'service_cpu_ms_per_write', unit: 'ms', direction: 'lower' },
    { name: 'db_cpu_ms_per_write', unit: 'ms', direction: 'lower' },
    { name: 'bench_cpu_ms_per_write', unit: 'ms', direction: 'lower' },
    { name: 'delivered_per_s', unit: 'events/s', direction: 'higher' },
    { name: 'bad_signatures', unit: 'events', direction: 'lower', target: { kind: 'absolute', max: 0 } },
  ],
  async setup(ctx) {
    await createEventsContainer(ctx.databaseUrl, CONTAINER);
    await primeAuth(ctx.service);
    receiver = await EventsReceiver.start();
  },
  runService: (ctx, run) => writesSample(ctx, run, SUBSCRIPTIONS),
  runBaseline: (ctx, run) => writesSample(ctx, run, 0),
  async teardown(ctx) {
    await receiver?.close();
    await removeEventsContainer(ctx.databaseUrl, CONTAINER);
    receiver = undefined;
  },
};
