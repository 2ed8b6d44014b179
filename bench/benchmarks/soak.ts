/**
 * `soak`: a minute (`--duration`; a few seconds with --smoke) of mixed traffic as alice on 64
 * connections, each running one scenario after another, picked at random by weight:
 *   files    GET /files/<number>?role=all, then GET one listed file (length checked)
 *   numbers  POST /numbers/generate/wt.doc.WTDocument on a rule of a container where alice is
 *            author; every number is kept
 *   report   POST /reports with a small QML (documents by a number wildcard)
 *   template GET /reports/Documents%20by%20number (a template of the dataset), as JSON
 *   query    open a session (documents by a number wildcard), fetch page 1, DELETE it
 * Afterwards: no number handed out twice, nor one an existing document already carries.
 * There is no baseline: nothing does this mix but the service, so only absolute targets apply
 * (no 5xx, no other failure, no duplicate number), and the latencies are reported for
 * information: p99 per kind of request and overall.
 */
import http from 'node:http';
import { withClient } from '../harness/database.js';
import type { Benchmark, BenchContext, MetricSpec, RunSpec, Sample } from '../harness/types.js';
import { ALICE_BASIC, primeAuth } from './common.js';
import { NUMBER_WILDCARD } from './reports.js';

/** Each query scenario holds one session: stay below QUERY_MAX_SESSIONS_PER_USER (20). */
const MAX_QUERY_SCENARIOS = 16;
const QUERY_LIMIT = 5;
const TEMPLATE = 'Documents by number';
const NUMBER_CLASS = 'wt.doc.WTDocument';
const TIMEOUT_MS = 60_000;

const KINDS = [
  'files_list',
  'file_download',
  'numbers_generate',
  'report_post',
  'report_template',
  'query_open',
  'query_page',
  'query_close',
] as const;
type Kind = (typeof KINDS)[number];

interface Data {
  files: { number: string; fileName: string; size: number }[];
  /** A number wildcard matching some dozens of alice's documents. */
  pattern: string;
  numbersContainer: string;
}

interface Answer {
  status: number;
  body: Buffer;
}

class Stats {
  readonly latencies = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
  readonly numbers: string[] = [];
  requests = 0;
  http5xx = 0;
  otherFailures = 0;
  private readonly examples: string[] = [];

  /** Counts an answer and its latency; false (the failure counted) unless it is a 2xx. */
  record(kind: Kind, ms: number, answer: Answer): boolean {
    this.requests++;
    this.latencies.get(kind)!.push(ms);
    if (answer.status >= 200 && answer.status < 300) return true;
    const what = `${answer.status} ${answer.body.toString('utf8', 0, 200)}`;
    if (answer.status >= 500) {
      this.http5xx++;
      this.example(kind, what);
    } else this.fail(kind, what);
    return false;
  }

  /** A failure that is not a 5xx: a 4xx, a wrong answer, a broken connection, a timeout. */
  fail(kind: Kind, what: string): void {
    this.otherFailures++;
    this.example(kind, what);
  }

  private example(kind: Kind, what: string): void {
    if (this.examples.length < 5) this.examples.push(`${kind}: ${what}`);
  }

  report(log: (line: string) => void): void {
    for (const e of this.examples) log(`soak: ${e}`);
  }
}

let data: Data | undefined;

function p99(values: number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)];
}

/** One request on the shared keep-alive agent; a broken connection or timeout rejects. */
function request(
  agent: http.Agent,
  base: string,
  path: string,
  method = 'GET',
  body?: { type: string; text: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { authorization: ALICE_BASIC };
    if (body) {
      headers['content-type'] = body.type;
      headers['content-length'] = Buffer.byteLength(body.text);
    }
    const req = http.request(new URL(path, base), { method, agent, headers, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body?.text);
  });
}

type Send = (
  kind: Kind,
  path: string,
  method?: string,
  body?: { type: string; text: string },
) => Promise<Answer | null>;

/** Times one request and records it; null when it failed in any way (already counted). */
function sender(agent: http.Agent, base: string, stats: Stats): Send {
  return async (kind, path, method = 'GET', body) => {
    const started = performance.now();
    try {
      const answer = await request(agent, base, path, method, body);
      return stats.record(kind, performance.now() - started, answer) ? answer : null;
    } catch (e) {
      stats.requests++;
      stats.fail(kind, e instanceof Error ? e.message : String(e));
      return null;
    }
  };
}

const json = <T>(a: Answer) => JSON.parse(a.body.toString('utf8')) as T;
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];

async function filesScenario(send: Send, stats: Stats, d: Data): Promise<void> {
  const doc = pick(d.files);
  const number = encodeURIComponent(doc.number);
  const list = await send('files_list', `/files/${number}?role=all`);
  if (!list) return;
  const items = json<{ items: { filename: string; size: number }[] }>(list).items;
  const file = items.find((i) => i.filename === doc.fileName);
  if (!file) return stats.fail('files_list', `${doc.number}: ${doc.fileName} not listed`);
  const got = await send('file_download', `/files/${number}/${encodeURIComponent(file.filename)}`);
  if (got && got.body.length !== file.size) {
    stats.fail('file_download', `${doc.number}/${file.filename}: ${got.body.length} of ${file.size} bytes`);
  }
}

async function numbersScenario(send: Send, stats: Stats, d: Data): Promise<void> {
  const container = encodeURIComponent(d.numbersContainer);
  const answer = await send(
    'numbers_generate',
    `/numbers/generate/${NUMBER_CLASS}?container-name=${container}&count=1`,
    'POST',
  );
  if (!answer) return;
  const items = json<{ items: string[] }>(answer).items;
  if (items.length !== 1) return stats.fail('numbers_generate', `${items.length} numbers for count=1`);
  stats.numbers.push(items[0]);
}

async function reportScenario(send: Send, d: Data): Promise<void> {
  const number = encodeURIComponent(d.pattern);
  await send('report_post', `/reports?number=${number}`, 'POST', { type: 'text/xml', text: NUMBER_WILDCARD });
}

async function templateScenario(send: Send, d: Data): Promise<void> {
  const number = encodeURIComponent(d.pattern);
  await send('report_template', `/reports/${encodeURIComponent(TEMPLATE)}?number=${number}&format=json`);
}

function queryOpenPath(d: Data): string {
  const q = encodeURIComponent(JSON.stringify({ type: 'wt.doc.WTDocument', number: d.pattern }));
  return `/query/1.0/query?q=${q}&limit=${QUERY_LIMIT}`;
}

async function queryScenario(send: Send, stats: Stats, d: Data): Promise<void> {
  const opened = await send('query_open', queryOpenPath(d));
  if (!opened) return;
  const session = json<{ session_id: number }>(opened).session_id;
  if (!session) return stats.fail('query_open', 'no session: the pattern matches too few documents');
  const page = await send('query_page', `/query/1.0/query/${session}?page=1&limit=${QUERY_LIMIT}`);
  if (page && json<{ count: number }>(page).count === 0) stats.fail('query_page', `session ${session}: empty page 1`);
  await send('query_close', `/query/1.0/query/${session}`, 'DELETE');
}

/** Scenario weights: roughly the share of scenarios each connection starts. */
const SCENARIOS = [
  { name: 'files', weight: 3 },
  { name: 'numbers', weight: 2 },
  { name: 'report', weight: 1 },
  { name: 'template', weight: 1 },
  { name: 'query', weight: 2 },
] as const;
const TOTAL_WEIGHT = SCENARIOS.reduce((n, s) => n + s.weight, 0);

function chooseScenario(): (typeof SCENARIOS)[number]['name'] {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const s of SCENARIOS) if ((r -= s.weight) < 0) return s.name;
  return SCENARIOS[0].name;
}

/** Numbers handed out twice in the run, or handed out although a document carries them. */
async function duplicateNumbers(ctx: BenchContext, numbers: string[]): Promise<number> {
  const twice = numbers.length - new Set(numbers).size;
  const carried = await withClient(ctx.databaseUrl, async (c) => {
    const r = await c.query<{ n: string }>('SELECT count(*) AS n FROM masters WHERE class = $1 AND number = ANY($2)', [
      NUMBER_CLASS,
      numbers,
    ]);
    return Number(r.rows[0].n);
  });
  return twice + carried;
}

async function soakRun(ctx: BenchContext, run: RunSpec): Promise<Sample> {
  const d = data!;
  const stats = new Stats();
  const agent = new http.Agent({ keepAlive: true, maxSockets: ctx.connections });
  const send = sender(agent, ctx.service.url, stats);
  const deadline = Date.now() + run.seconds * 1000;
  let queries = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: ctx.connections }, async () => {
      while (Date.now() < deadline) {
        let scenario = chooseScenario();
        if (scenario === 'query' && queries >= MAX_QUERY_SCENARIOS) scenario = 'files';
        if (scenario === 'files') await filesScenario(send, stats, d);
        else if (scenario === 'numbers') await numbersScenario(send, stats, d);
        else if (scenario === 'report') await reportScenario(send, d);
        else if (scenario === 'template') await templateScenario(send, d);
        else {
          queries++;
          await queryScenario(send, stats, d).finally(() => queries--);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  stats.report(ctx.log);
  const all = [...stats.latencies.values()].flat();
  const sample: Sample = {
    requests: stats.requests,
    requests_per_s: stats.requests / seconds,
    http_5xx: stats.http5xx,
    other_failures: stats.otherFailures,
    numbers_generated: stats.numbers.length,
    duplicate_numbers: await duplicateNumbers(ctx, stats.numbers),
    p99_ms: p99(all),
  };
  for (const [kind, values] of stats.latencies) sample[`${kind}_p99_ms`] = p99(values);
  return sample;
}

/** Documents with files, the wildcard and the numbering container, from alice's side of the data. */
async function chooseData(ctx: BenchContext): Promise<Data> {
  return withClient(ctx.databaseUrl, async (c) => {
    const readable = `(SELECT container_id FROM memberships ms JOIN users u ON u.id = ms.user_id WHERE u.name = 'alice')`;
    const files = await c.query<{ number: string; file_name: string; size: string }>(
      `SELECT m.number, ci.file_name, ci.size FROM masters m
       JOIN iterations i ON i.master_id = m.id AND i.latest JOIN content_items ci ON ci.iteration_id = i.id
       WHERE m.class = 'wt.doc.WTDocument' AND m.container_id IN ${readable}
       ORDER BY m.id, ci.id LIMIT 200`,
    );
    const container = await c.query<{ name: string }>(
      `SELECT c.name FROM containers c JOIN memberships ms ON ms.container_id = c.id
       JOIN users u ON u.id = ms.user_id AND u.name = 'alice'
       JOIN numbering_rules r ON r.container_id = c.id AND r.class = $1
       WHERE ms.role IN ('author', 'manager') ORDER BY c.id LIMIT 1`,
      [NUMBER_CLASS],
    );
    if (!files.rows.length || !container.rows.length) {
      throw new Error('alice has no documents with files or no numbering rule to author: regenerate the data');
    }
    // The shortest cut of a number that leaves more than two query pages (some dozens at 1 M).
    const first = files.rows[0].number;
    let pattern = '*';
    for (let keep = first.length - 1; keep > 0; keep--) {
      const prefix = first.slice(0, keep);
      const n = await c.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM masters WHERE class = 'wt.doc.WTDocument'
         AND container_id IN ${readable} AND starts_with(number, $1)`,
        [prefix],
      );
      if (n.rows[0].n > 2 * QUERY_LIMIT) {
        pattern = `${prefix}*`;
        break;
      }
    }
    return {
      files: files.rows.map((r) => ({ number: r.number, fileName: r.file_name, size: Number(r.size) })),
      pattern,
      numbersContainer: container.rows[0].name,
    };
  });
}

/** One of every scenario before the load, so a broken setup fails at once instead of 64 times a second. */
async function checkScenarios(ctx: BenchContext, d: Data): Promise<void> {
  const stats = new Stats();
  const agent = new http.Agent({ keepAlive: false });
  const send = sender(agent, ctx.service.url, stats);
  await filesScenario(send, stats, d);
  await numbersScenario(send, stats, d);
  await reportScenario(send, d);
  await templateScenario(send, d);
  await queryScenario(send, stats, d);
  const lines: string[] = [];
  stats.report((line) => lines.push(line));
  if (stats.http5xx || stats.otherFailures) throw new Error(`the scenarios do not work: ${lines.join('; ')}`);
}

const metrics: MetricSpec[] = [
  { name: 'requests', unit: 'requests', direction: 'higher' },
  { name: 'requests_per_s', unit: 'req/s', direction: 'higher' },
  { name: 'http_5xx', unit: 'answers', direction: 'lower', target: { kind: 'absolute', max: 0 } },
  { name: 'other_failures', unit: 'requests', direction: 'lower', target: { kind: 'absolute', max: 0 } },
  { name: 'numbers_generated', unit: 'numbers', direction: 'higher' },
  { name: 'duplicate_numbers', unit: 'numbers', direction: 'lower', target: { kind: 'absolute', max: 0 } },
  { name: 'p99_ms', unit: 'ms', direction: 'lower' },
  ...KINDS.map((k): MetricSpec => ({ name: `${k}_p99_ms`, unit: 'ms', direction: 'lower' })),
];

export const soak: Benchmark = {
  name: 'soak',
  description:
    'mixed traffic as alice on 64 connections (file list and download, number generation, POST /reports, a named report, query open/fetch/close): 5xx, failures, duplicate numbers, p99 latency',
  metrics,
  single: { seconds: 60, smokeSeconds: 3 },
  connections: 64,
  async setup(ctx) {
    data = await chooseData(ctx);
    await primeAuth(ctx.service);
    await checkScenarios(ctx, data);
  },
  runService: soakRun,
};
