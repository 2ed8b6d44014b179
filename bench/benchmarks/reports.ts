/**
 * `reports`: four QML templates through POST /reports as alice — a number wildcard filter on
 * documents, the part structure with reference joins, files per state grouped with COUNT and
 * SUM, change orders → activities → affected parts over catalog links — beside the same SQL
 * written by hand behind a minimal node:http server with pg that returns the same JSON
 * (bench/baselines/reports-baseline.ts). Per template: requests/s at 32 connections (the
 * throughput, target ≥ 1.0 × the baseline's) and the median latency at one connection (what a
 * request costs on its own, target ≤ 1.2 × the baseline's); the median at 32 connections is
 * reported without target, as it is mostly queueing. Also the compiler on its own: parse,
 * validate, plan and render per template, in microseconds, in a worker thread of its own.
 * Latencies are taken from every response's own duration (sub-millisecond), not from
 * autocannon's histogram, which keeps whole milliseconds: at one connection a request takes a
 * few of them, and a whole-millisecond median cannot tell 1.2 × from 1.5 ×.
 * Designed for 100 000 objects, on a database of that size (`objects`): over 1 M, files per
 * state aggregates some 340 000 files per request (1.5 s alone on 2 cores), so 32 connections
 * wait longer than the load generator's 10 s timeout and the run measures queueing only.
 */
import autocannon from 'autocannon';
import pg from 'pg';
import type { ChildServer } from '../harness/child-server.js';
import { withClient } from '../harness/database.js';
import { median } from '../harness/evaluate.js';
import type { Benchmark, BenchContext, MetricSpec, RunSpec, Sample } from '../harness/types.js';
import { Worker } from 'node:worker_threads';
import type { CompileMicros } from './compile-worker.js';
import { seedChanges } from '../data/changes.js';
import { ALICE_BASIC } from './common.js';

export const NUMBER_WILDCARD = `<?xml version="1.0" encoding="UTF-8"?>
<qml><parameter name="number" type="java.lang.String"/><statement><query>
  <select><object alias="D" heading="Document" propertyName=""/><column alias="D" heading="Number">master&gt;number</column>
    <column alias="D" heading="Name">master&gt;name</column><column alias="D" heading="State">state.state</column>
    <column alias="D" heading="Modified">thePersistInfo.modifyStamp</column></select>
  <from><table alias="D">wt.doc.WTDocument</table></from>
  <where><compositeCondition type="and">
    <condition><operand><column alias="D">master&gt;number</column></operand><operator type="like"/><operand><parameterTarget name="number"/></operand></condition>
    <condition><operand><column alias="D">iterationInfo.latest</column></operand><operator type="equal"/><operand><constant>1</constant></operand></condition>
  </compositeCondition></where>
  <orderBy><orderByItem><columnTarget heading="Number"/></orderByItem></orderBy>
</query></statement></qml>`;

export const PART_STRUCTURE = `<?xml version="1.0" encoding="UTF-8"?>
<qml><parameter name="number" type="java.lang.String"/><statement><query>
  <select><column alias="using" heading="Using Number">master&gt;number</column><column alias="used" heading="Used Number">number</column>
    <column alias="used" heading="Used Name">name</column><column alias="link" heading="Quantity">quantity.amount</column>
    <column alias="link" heading="Line">lineNumber.value</column></select>
  <from><table alias="using">wt.part.WTPart</table><table alias="link">wt.part.WTPartUsageLink</table><table alias="used">wt.part.WTPartMaster</table></from>
  <where><compositeCondition type="and">
    <condition><operand><column alias="using">iterationInfo.latest</column></operand><operator type="equal"/><operand><constant>1</constant></operand></condition>
    <condition><operand><column alias="using">master&gt;number</column></operand><operator type="like"/><operand><parameterTarget name="number"/></operand></condition>
  </compositeCondition></where>
  <orderBy><orderByItem><columnTarget heading="Using Number"/></orderByItem><orderByItem><columnTarget heading="Line"/></orderByItem></orderBy>
  <referenceJoin><join name="roleAObjectRef"><aliasTarget alias="link"/><aliasTarget alias="using"/></join>
    <join name="roleBObjectRef"><aliasTarget alias="link"/><aliasTarget alias="used"/></join></referenceJoin>
</query></statement></qml>`;

const FILES_PER_STATE = `<?xml version="1.0" encoding="UTF-8"?>
<qml><statement><query>
  <select group="true"><column alias="Doc" heading="State">state.state</column>
    <function heading="Files" name="COUNT"><column alias="File">thePersistInfo.theObjectIdentifier.id</column></function>
    <function heading="Bytes" name="SUM"><column alias="File">fileSize</column></function></select>
  <from><table alias="Doc">wt.doc.WTDocument</table><table alias="File">wt.content.ApplicationData</table></from>
  <where><condition><operand><column alias="Doc">iterationInfo.latest</column></operand><operator type="equal"/><operand><constant>1</constant></operand></condition></where>
  <orderBy><orderByItem type="desc"><columnTarget heading="Bytes"/></orderByItem></orderBy>
  <linkJoin><join name="wt.content.HolderToContent"><aliasTarget alias="Doc"/><aliasTarget alias="File"/></join></linkJoin>
</query></statement></qml>`;

/** Change management: change orders → their activities (IncludedIn2) → affected parts (AffectedActivityData). */
export const CHANGE_MANAGEMENT = `<?xml version="1.0" encoding="UTF-8"?>
<qml><parameter name="number" type="java.lang.String"/><statement><query>
  <select><column alias="CN" heading="Change Notice">number</column><column alias="CA" heading="Task">number</column>
    <column alias="P" heading="Part">number</column><column alias="P" heading="Part Name">name</column></select>
  <from><table alias="CN">wt.change2.WTChangeOrder2</table><table alias="CA">wt.change2.WTChangeActivity2</table><table alias="P">wt.part.WTPart</table></from>
  <where><compositeCondition type="and">
    <condition><operand><column alias="CN">number</column></operand><operator type="like"/><operand><parameterTarget name="number"/></operand></condition>
    <condition><operand><column alias="CN">iterationInfo.latest</column></operand><operator type="equal"/><operand><constant>1</constant></operand></condition>
  </compositeCondition></where>
  <orderBy><orderByItem><columnTarget heading="Change Notice"/></orderByItem><orderByItem><columnTarget heading="Task"/></orderByItem><orderByItem><columnTarget heading="Part"/></orderByItem></orderBy>
  <linkJoin><join name="wt.change2.IncludedIn2"><aliasTarget alias="CN"/><aliasTarget alias="CA"/></join>
    <join name="wt.change2.AffectedActivityData"><aliasTarget alias="CA"/><aliasTarget alias="P"/></join></linkJoin>
</query></statement></qml>`;

export interface Case {
  name: string;
  qml: string;
  /** The URL query (the parameter value), chosen from the data in setup. */
  query: string;
}

export const CASES: Case[] = [
  { name: 'number-wildcard', qml: NUMBER_WILDCARD, query: '' },
  { name: 'part-structure', qml: PART_STRUCTURE, query: '' },
  { name: 'files-per-state', qml: FILES_PER_STATE, query: '' },
  { name: 'change-management', qml: CHANGE_MANAGEMENT, query: '' },
];

let baseline: ChildServer | undefined;

/** Patterns matching about a hundred of alice's documents and a few of her part structures. */
export async function chooseParameters(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const readable = `(SELECT container_id FROM memberships ms JOIN users u ON u.id = ms.user_id WHERE u.name = 'alice')`;
    const doc = await client.query<{ number: string }>(
      `SELECT m.number FROM masters m WHERE m.class = 'wt.doc.WTDocument' AND m.container_id IN ${readable} ORDER BY m.id LIMIT 1 OFFSET 500`,
    );
    const part = await client.query<{ number: string }>(
      `SELECT m.number FROM usage_links l JOIN iterations i ON i.id = l.parent_id JOIN masters m ON m.id = i.master_id
       WHERE l.class = 'wt.part.WTPartUsageLink' AND i.latest AND m.container_id IN ${readable} ORDER BY l.id LIMIT 1`,
    );
    const change = await client.query<{ number: string }>(
      `SELECT m.number FROM masters m WHERE m.class = 'wt.change2.WTChangeOrder2' AND m.container_id IN ${readable}
       ORDER BY m.number LIMIT 1`,
    );
    const prefix = (rows: { number: string }[], keep: number) => (rows[0] ? `${rows[0].number.slice(0, -keep)}*` : '*');
    CASES[0].query = `?number=${encodeURIComponent(prefix(doc.rows, 2))}`;
    CASES[1].query = `?number=${encodeURIComponent(prefix(part.rows, 1))}`;
    // About ten change orders of one container: some 500 affected parts.
    CASES[3].query = `?number=${encodeURIComponent(prefix(change.rows, 1))}`;
  } finally {
    await client.end();
  }
}

export function path(server: 'service' | 'baseline', c: Case): string {
  return server === 'service' ? `/reports${c.query}` : `/reports/${c.name}${c.query}`;
}

export async function post(
  url: string,
  body: string,
  authorization = ALICE_BASIC,
): Promise<{ status: number; json: { items: unknown[] } }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization, 'content-type': 'text/xml' },
    body,
  });
  return { status: res.status, json: (await res.json()) as { items: unknown[] } };
}

/** Both sides must give alice the same rows for every query: the same work. */
async function checkSameWork(service: ChildServer, base: ChildServer): Promise<void> {
  for (const c of CASES) {
    const a = await post(service.url + path('service', c), c.qml);
    const b = await post(base.url + path('baseline', c), c.qml);
    if (a.status !== 200 || b.status !== 200) throw new Error(`${c.name}: answers ${a.status} and ${b.status}`);
    if (JSON.stringify(a.json.items) !== JSON.stringify(b.json.items)) {
      throw new Error(`${c.name}: the rows differ (${a.json.items.length} vs ${b.json.items.length})`);
    }
    if (a.json.items.length === 0) throw new Error(`${c.name}: no rows; the benchmark would measure nothing`);
  }
}

/** A load of `seconds` at `connections`: requests/s and the median of the response times. */
export async function load(
  server: ChildServer,
  side: 'service' | 'baseline',
  c: Case,
  connections: number,
  seconds: number,
  authorization = ALICE_BASIC,
): Promise<{ requestsPerSec: number; p50Ms: number }> {
  const times: number[] = [];
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.url + path(side, c),
        method: 'POST',
        headers: { authorization, 'content-type': 'text/xml' },
        body: c.qml,
        connections,
        duration: seconds,
      },
      (err: unknown, result: autocannon.Result) => (err ? reject(err as Error) : resolve(result)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) times.push(ms);
    });
  });
  if (r.requests.total === 0 || r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) {
    throw new Error(
      `${side} ${c.name} at ${connections} connection(s): ${r.requests.total} requests, ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`,
    );
  }
  return { requestsPerSec: r.requests.average, p50Ms: median(times) };
}

/** Longest wait for the statements of an earlier load to end. */
const SETTLE_TIMEOUT_MS = 60_000;

/**
 * Waits until no statement runs on the benchmark database but this one. When a load ends, the
 * requests still in flight go on running on the server that got them (files per state: up to 32
 * statements of a tenth of a second each, queued in a pool of 10), and a load started meanwhile
 * would measure them: the one-connection latency after the 32-connection load came out twice the
 * baseline's for that reason alone.
 */
export async function settle(databaseUrl: string): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
      );
      if (rows[0].n === 0) return;
      if (Date.now() > deadline) throw new Error(`${rows[0].n} statements still running after the last load`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
}

/** Microseconds to compile and to render each template, measured in a worker thread (compile-worker.ts). */
export function compileMicros(templates: string[]): Promise<CompileMicros[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./compile-worker.js', import.meta.url), { workerData: { templates } });
    worker.once('message', (us: CompileMicros[]) => resolve(us));
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`the compile worker exited with ${code}`)));
  });
}

async function measure(side: 'service' | 'baseline', ctx: BenchContext, run: RunSpec): Promise<Sample> {
  const server = side === 'service' ? ctx.service : baseline!;
  const sample: Sample = {};
  // Each load gets an eighth of the round (a quarter per template, half of that for each
  // load), at least 5 s, as the grouped query over the whole dataset takes seconds under load.
  const seconds = Math.max(5, Math.round(run.seconds / CASES.length / 2));
  // The compiler first, while nothing else runs: the loads leave PostgreSQL busy for a while.
  if (side === 'service') {
    const micros = await compileMicros(CASES.map((c) => c.qml));
    CASES.forEach((c, i) => {
      sample[`${c.name}_compile_us`] = micros[i].compile;
      sample[`${c.name}_render_us`] = micros[i].cached;
    });
  }
  for (const c of CASES) {
    await settle(ctx.databaseUrl);
    const one = await load(server, side, c, 1, seconds);
    await settle(ctx.databaseUrl);
    const many = await load(server, side, c, ctx.connections, seconds);
    sample[`${c.name}_requests_per_s`] = many.requestsPerSec;
    sample[`${c.name}_p50_1conn_ms`] = one.p50Ms;
    sample[`${c.name}_p50_ms`] = many.p50Ms;
  }
  return sample;
}

const metrics: MetricSpec[] = CASES.flatMap((c): MetricSpec[] => [
  { name: `${c.name}_requests_per_s`, unit: 'req/s', direction: 'higher', target: { kind: 'ratio', min: 1 } },
  { name: `${c.name}_p50_1conn_ms`, unit: 'ms', direction: 'lower', target: { kind: 'ratio', max: 1.2 } },
  { name: `${c.name}_p50_ms`, unit: 'ms', direction: 'lower' },
  { name: `${c.name}_compile_us`, unit: 'µs', direction: 'lower', target: { kind: 'absolute', max: 1000 } },
  // Building one request's SQL from the compiled template, as the service does (kept per shape).
  { name: `${c.name}_render_us`, unit: 'µs', direction: 'lower' },
]);

export const reports: Benchmark = {
  name: 'reports',
  description:
    'POST /reports as alice with four QML templates (number wildcard, part structure with joins, files per state grouped, change orders → activities → affected parts over catalog links), beside the same SQL by hand in a minimal node:http + pg server: requests/s at 32 connections, p50 at one connection (and, without target, at 32); and the compile time per template, and (without target) the time to build the SQL of one request from the compiled template',
  metrics,
  objects: 100_000,
  async setup(ctx) {
    await seedChanges(ctx.databaseUrl);
    await chooseParameters(ctx.databaseUrl);
    baseline = await ctx.startBaseline('baselines/reports-baseline.js', { DATABASE_URL: ctx.databaseUrl });
    await checkSameWork(ctx.service, baseline);
  },
  runService: (ctx, run) => measure('service', ctx, run),
  runBaseline: (ctx, run) => measure('baseline', ctx, run),
  async teardown() {
    await baseline?.stop();
    baseline = undefined;
  },
};
