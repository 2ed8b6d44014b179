/**
 * Identity benchmarks, each comparing the service with itself so that only the way of signing in
 * or of being granted rights differs:
 * - `version_token`: GET /files/version with alice's personal access token (Bearer) beside the
 *   same request with her password (HTTP Basic, whose verification is cached): a token must cost
 *   no more than Basic (target ≥ 1.0 × its requests/s).
 * - `reports_groups`: two report templates through POST /reports as a user whose rights come
 *   from a group nested in another group (the outer one holds alice's roles in her containers),
 *   beside alice with her own memberships: the same rows, within 5 % (requests/s at 32
 *   connections, median at one).
 */
import type { ChildServer } from '../harness/child-server.js';
import { withClient } from '../harness/database.js';
import type { Benchmark, BenchContext, MetricSpec, RunSpec, Sample } from '../harness/types.js';
import { ALICE_BASIC, VERSION_PATH, basicAuth, versionLoad } from './common.js';
import { CASES, chooseParameters, load, path, post, settle, type Case } from './reports.js';

const ADMIN_BASIC = basicAuth('admin', 'admin');
const GROUP_USER = 'bench-galice';
const GROUP_USER_BASIC = basicAuth(GROUP_USER, 'bench-galice-pw');
const INNER = 'bench-alice-inner';
const OUTER = 'bench-alice-outer';

let bearer: string | undefined;

async function request(server: ChildServer, method: string, url: string, authorization: string, body?: unknown) {
  const res = await fetch(server.url + url, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A day's token for alice, read scope (a version request needs no more). */
async function aliceToken(server: ChildServer): Promise<string> {
  const res = await request(server, 'POST', '/me/tokens', ALICE_BASIC, {
    name: `bench-${Date.now()}`,
    expiresInDays: 1,
    scopes: ['read'],
  });
  if (res.status !== 201 || typeof res.body.token !== 'string')
    throw new Error(`POST /me/tokens answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

export const versionToken: Benchmark = {
  name: 'version_token',
  description: `GET ${VERSION_PATH} with a personal access token (Bearer), beside the same request with HTTP Basic on the same service`,
  metrics: [
    { name: 'requests_per_s', unit: 'req/s', direction: 'higher', target: { kind: 'ratio', min: 1 } },
    { name: 'p50_ms', unit: 'ms', direction: 'lower' },
    { name: 'p99_ms', unit: 'ms', direction: 'lower' },
  ],
  async setup(ctx) {
    bearer = `Bearer ${await aliceToken(ctx.service)}`;
    const a = await request(ctx.service, 'GET', VERSION_PATH, bearer);
    const b = await request(ctx.service, 'GET', VERSION_PATH, ALICE_BASIC);
    if (a.status !== 200 || JSON.stringify(a.body) !== JSON.stringify(b.body))
      throw new Error(`the token answered ${a.status} ${JSON.stringify(a.body)}, Basic ${b.status}`);
  },
  runService: (ctx, run) => versionSample(ctx, run, bearer!),
  runBaseline: (ctx, run) => versionSample(ctx, run, ALICE_BASIC),
};

async function versionSample(ctx: BenchContext, run: RunSpec, authorization: string): Promise<Sample> {
  const r = await versionLoad(ctx.service, ctx, run.seconds, authorization);
  return { requests_per_s: r.requestsPerSec, p50_ms: r.p50Ms, p99_ms: r.p99Ms };
}

/**
 * bench-galice, in INNER, in OUTER, which holds alice's role in each of her containers; no
 * membership of her own. Made again on every run (the user through the API, for its password
 * hash; the groups in SQL, maintained into the effective roles by the database).
 */
async function grantThroughGroups(ctx: BenchContext): Promise<void> {
  const made = await request(ctx.service, 'POST', '/admin/users', ADMIN_BASIC, {
    name: GROUP_USER,
    password: 'bench-galice-pw',
  });
  if (made.status !== 201 && made.status !== 409)
    throw new Error(`POST /admin/users answered ${made.status} ${JSON.stringify(made.body)}`);
  await withClient(ctx.databaseUrl, async (c) => {
    await c.query('DELETE FROM groups WHERE name = ANY($1::text[])', [[INNER, OUTER]]);
    await c.query(`DELETE FROM memberships WHERE user_id = (SELECT id FROM users WHERE name = $1)`, [GROUP_USER]);
    await c.query('INSERT INTO groups (name) VALUES ($1), ($2)', [INNER, OUTER]);
    await c.query(
      `INSERT INTO group_groups (group_id, member_group_id)
       SELECT o.id, i.id FROM groups o, groups i WHERE o.name = $1 AND i.name = $2`,
      [OUTER, INNER],
    );
    await c.query(
      `INSERT INTO group_users (group_id, user_id) SELECT g.id, u.id FROM groups g, users u WHERE g.name = $1 AND u.name = $2`,
      [INNER, GROUP_USER],
    );
    await c.query(
      `INSERT INTO group_memberships (container_id, group_id, role)
       SELECT m.container_id, g.id, m.role FROM memberships m JOIN users u ON u.id = m.user_id, groups g
       WHERE u.name = 'alice' AND g.name = $1`,
      [OUTER],
    );
  });
}

/** The two templates of the reports benchmark that read the caller's containers most selectively. */
const GROUP_CASES: Case[] = CASES.slice(0, 2);

async function checkSameRows(service: ChildServer): Promise<void> {
  for (const c of GROUP_CASES) {
    const a = await post(service.url + path('service', c), c.qml, GROUP_USER_BASIC);
    const b = await post(service.url + path('service', c), c.qml, ALICE_BASIC);
    if (a.status !== 200 || b.status !== 200) throw new Error(`${c.name}: answers ${a.status} and ${b.status}`);
    if (JSON.stringify(a.json.items) !== JSON.stringify(b.json.items))
      throw new Error(`${c.name}: the rows differ (${a.json.items.length} vs ${b.json.items.length})`);
    if (a.json.items.length === 0) throw new Error(`${c.name}: no rows; the benchmark would measure nothing`);
  }
}

async function reportsSample(ctx: BenchContext, run: RunSpec, authorization: string): Promise<Sample> {
  const sample: Sample = {};
  const seconds = Math.max(5, Math.round(run.seconds / GROUP_CASES.length / 2));
  for (const c of GROUP_CASES) {
    await settle(ctx.databaseUrl);
    const one = await load(ctx.service, 'service', c, 1, seconds, authorization);
    await settle(ctx.databaseUrl);
    const many = await load(ctx.service, 'service', c, ctx.connections, seconds, authorization);
    sample[`${c.name}_requests_per_s`] = many.requestsPerSec;
    sample[`${c.name}_p50_1conn_ms`] = one.p50Ms;
  }
  return sample;
}

export const reportsGroups: Benchmark = {
  name: 'reports_groups',
  description:
    'POST /reports (number wildcard, part structure) as a user whose rights come from a nested group, beside alice with the same rights as her own memberships, on the same service',
  metrics: GROUP_CASES.flatMap((c): MetricSpec[] => [
    { name: `${c.name}_requests_per_s`, unit: 'req/s', direction: 'higher', target: { kind: 'ratio', min: 0.95 } },
    { name: `${c.name}_p50_1conn_ms`, unit: 'ms', direction: 'lower', target: { kind: 'ratio', max: 1.05 } },
  ]),
  objects: 100_000,
  async setup(ctx) {
    await chooseParameters(ctx.databaseUrl);
    await grantThroughGroups(ctx);
    await checkSameRows(ctx.service);
  },
  runService: (ctx, run) => reportsSample(ctx, run, GROUP_USER_BASIC),
  runBaseline: (ctx, run) => reportsSample(ctx, run, ALICE_BASIC),
};
