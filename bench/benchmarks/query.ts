/**
 * `query`: paged query sessions over every latest business object (1 M at full size), as admin
 * (who reads every container): the time to open a session (snapshot of all matches, first page)
 * and the latency of page 0, page 1000 and the last page (39 999 at 1 M objects, limit 25) of
 * that session. The baseline pages the same query the usual way, LIMIT/OFFSET over the live
 * query through pg (bench/baselines/query-baseline.ts); its "open" is count(*) plus page 0.
 * Targets: open ≤ 1.5 s, and the last page costs at most 1.5 × page 0 (the snapshot is read by
 * position, so depth must not matter; OFFSET's cost grows with it).
 *
 * Associations: a page of 100 (page 0 at limit 100) without associations and with `files` and
 * `representations`; target: with them at most 2 × without. Through the HTTP API when the
 * service takes `assoc` (associations are asked for at the open and kept with the session:
 * `GET 1.0/query/<session>?page=0&limit=100` of a session opened with
 * `assoc=files&assoc=representations`, both lists checked in every item); otherwise the page is
 * fetched over HTTP and the associations loaded in this process by the service's loader
 * (QueryAssociations, on a pool of its own), one after the other, and the log says so. The
 * baseline adds the same two statements through pg to its LIMIT/OFFSET page.
 */
import { CatalogRepository } from '../../src/catalog/catalog.repository.js';
import { CatalogService } from '../../src/catalog/catalog.service.js';
import { loadConfig } from '../../src/config/app-config.js';
import { createPrismaService, type StandalonePrisma } from '../../src/prisma/client.js';
import { AssociationsRepository } from '../../src/query/associations/associations.repository.js';
import { QueryAssociations } from '../../src/query/associations/query-associations.service.js';
import type { ChildServer } from '../harness/child-server.js';
import { median } from '../harness/evaluate.js';
import type { Benchmark, BenchContext, Sample } from '../harness/types.js';
import { basicAuth } from './common.js';

const ADMIN_BASIC = basicAuth('admin', 'admin');
const LIMIT = 25;
/** Each page is fetched this often per round; the median counts. */
const REPEAT = 5;
const Q = encodeURIComponent('{}');
/** The page size of the associations' measure, and the associations asked for. */
const ASSOC_LIMIT = 100;
const ASSOC_PARAMS = '&assoc=files&assoc=representations';

interface PageReply {
  session_id?: number;
  total?: number;
  count: number;
  items: { oid: string; url: string; files?: unknown[]; representations?: unknown[] }[];
}

let baseline: ChildServer | undefined;
let lastPage = 0;
/** Whether the service answers associations over HTTP; else the loader is measured in process. */
let assocOverHttp = false;
let direct: { db: StandalonePrisma; loader: QueryAssociations } | undefined;

async function get(url: string, method = 'GET'): Promise<{ ms: number; body: PageReply }> {
  const started = performance.now();
  const res = await fetch(url, { method, headers: { authorization: ADMIN_BASIC } });
  const body = (await res.json()) as PageReply;
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

/** The side's "open" URL and the URL of page p (of the session just opened, for the service). */
function urls(side: 'service' | 'baseline', server: ChildServer) {
  if (side === 'service') {
    return {
      open: `${server.url}/query/1.0/query?q=${Q}&limit=${LIMIT}`,
      page: (session: number, p: number) => `${server.url}/query/1.0/query/${session}?page=${p}&limit=${LIMIT}`,
    };
  }
  return {
    open: `${server.url}/query/open?limit=${LIMIT}`,
    page: (_: number, p: number) => `${server.url}/query/page?page=${p}&limit=${LIMIT}`,
  };
}

async function measure(side: 'service' | 'baseline', ctx: BenchContext): Promise<Sample> {
  const server = side === 'service' ? ctx.service : baseline!;
  const u = urls(side, server);
  const opened = await get(u.open);
  const session = opened.body.session_id ?? 0;
  const sample: Sample = { open_ms: opened.ms };
  try {
    for (const [name, p] of [
      ['page_0_ms', 0],
      ['page_1000_ms', Math.min(1000, lastPage)],
      ['page_last_ms', lastPage],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const r = await get(u.page(session, p));
        if (r.body.count !== LIMIT && p !== lastPage) throw new Error(`${side} page ${p}: ${r.body.count} items`);
        times.push(r.ms);
      }
      sample[name] = median(times);
    }
    Object.assign(sample, await measureAssociations(side, server, session));
  } finally {
    if (side === 'service' && session) await get(`${server.url}/query/1.0/query/${session}`, 'DELETE');
  }
  sample.deep_page_ratio = sample.page_last_ms / sample.page_0_ms;
  sample.assoc_ratio = sample.page_100_assoc_ms / sample.page_100_ms;
  return sample;
}

/**
 * A page of 100 without and with files and representations: page 0 of the session just opened,
 * and page 0 of a session opened asking for them (the associations are kept with a session), or
 * the page followed by the loader in this process.
 */
async function measureAssociations(side: 'service' | 'baseline', server: ChildServer, session: number) {
  const u = urls(side, server);
  const hundred = (url: string) => url.replace(`limit=${LIMIT}`, `limit=${ASSOC_LIMIT}`);
  const overHttp = side === 'baseline' || assocOverHttp;
  let assocSession = 0;
  if (side === 'service' && assocOverHttp) assocSession = (await get(u.open + ASSOC_PARAMS)).body.session_id ?? 0;
  try {
    const plain: number[] = [];
    const withAssoc: number[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const r = await get(hundred(u.page(session, 0)));
      if (r.body.count !== ASSOC_LIMIT) throw new Error(`${side} page of ${ASSOC_LIMIT}: ${r.body.count} items`);
      plain.push(r.ms);
      if (overHttp) {
        const url = hundred(u.page(assocSession, 0)) + (side === 'baseline' ? ASSOC_PARAMS : '');
        const a = await get(url);
        if (a.body.count !== ASSOC_LIMIT || !withBothLists(a.body)) {
          throw new Error(`${server.name}: a page of ${a.body.count} items, not all with files and representations`);
        }
        withAssoc.push(a.ms);
      } else {
        withAssoc.push(await pageThenLoader(hundred(u.page(session, 0)), server));
      }
    }
    return { page_100_ms: median(plain), page_100_assoc_ms: median(withAssoc) };
  } finally {
    if (assocSession) await get(`${server.url}/query/1.0/query/${assocSession}`, 'DELETE');
  }
}

const withBothLists = (body: PageReply) =>
  body.items.length > 0 && body.items.every((i) => Array.isArray(i.files) && Array.isArray(i.representations));

/** The page over HTTP, then its files and representations by the service's loader in this process. */
async function pageThenLoader(page: string, server: ChildServer): Promise<number> {
  const started = performance.now();
  const r = await get(page);
  const items = r.body.items.map((i) => ({ cls: i.oid.split(':')[1], id: Number(i.oid.split(':')[2]) }));
  const loaded = await direct!.loader.load(['files', 'representations'], items, null, server.url);
  if (loaded.size !== items.length) throw new Error(`the loader answered ${loaded.size} of ${items.length} items`);
  return performance.now() - started;
}

/**
 * Whether the service gives associations over HTTP (a session opened with `assoc`, both lists in
 * every item); when not, the loader in this process on a pool of its own, as admin reads (all
 * containers).
 */
async function chooseAssociationPath(ctx: BenchContext): Promise<void> {
  const res = await fetch(urls('service', ctx.service).open + ASSOC_PARAMS, {
    headers: { authorization: ADMIN_BASIC },
  });
  const body = (await res.json()) as PageReply;
  if (body.session_id) await get(`${ctx.service.url}/query/1.0/query/${body.session_id}`, 'DELETE');
  assocOverHttp = res.status === 200 && withBothLists(body);
  if (assocOverHttp) {
    ctx.log('query: associations measured over HTTP (a session opened with assoc=files&assoc=representations)');
    return;
  }
  ctx.log(`query: the service answers an open with assoc ${res.status}: the loader is measured in process`);
  const db = createPrismaService(ctx.databaseUrl);
  const config = loadConfig({ DATABASE_URL: ctx.databaseUrl });
  const loader = new QueryAssociations(
    new AssociationsRepository(db.prisma),
    new CatalogService(new CatalogRepository(db.prisma), config),
  );
  direct = { db, loader };
}

const stripHost = (items: { url: string }[]) => items.map((i) => ({ ...i, url: new URL(i.url).pathname }));

/** Both sides must give admin the same total and the same items on the last page: same work. */
async function checkSameWork(ctx: BenchContext, base: ChildServer): Promise<void> {
  const s = urls('service', ctx.service);
  const b = urls('baseline', base);
  const opened = await get(s.open);
  const session = opened.body.session_id ?? 0;
  try {
    const total = opened.body.total ?? 0;
    if (total < ASSOC_LIMIT || !session) {
      throw new Error(`only ${total} objects: the benchmark needs at least ${ASSOC_LIMIT}`);
    }
    lastPage = Math.ceil(total / LIMIT) - 1;
    const baseOpen = await get(b.open);
    if (baseOpen.body.total !== total) throw new Error(`totals differ: ${total} vs ${baseOpen.body.total}`);
    for (const p of [0, lastPage]) {
      const x = stripHost((await get(s.page(session, p))).body.items);
      const y = stripHost((await get(b.page(0, p))).body.items);
      if (JSON.stringify(x) !== JSON.stringify(y)) throw new Error(`page ${p} differs between service and baseline`);
    }
    await chooseAssociationPath(ctx);
    ctx.log(`query: ${total} objects, last page ${lastPage}`);
  } finally {
    if (session) await get(`${ctx.service.url}/query/1.0/query/${session}`, 'DELETE');
  }
}

export const query: Benchmark = {
  name: 'query',
  description:
    'open a query session over every latest object as admin, then page 0, 1000 and the last page (limit 25), and a page of 100 without and with files and representations; baseline: LIMIT/OFFSET over the live query through pg',
  metrics: [
    { name: 'open_ms', unit: 'ms', direction: 'lower', target: { kind: 'absolute', max: 1500 } },
    { name: 'page_0_ms', unit: 'ms', direction: 'lower' },
    { name: 'page_1000_ms', unit: 'ms', direction: 'lower' },
    { name: 'page_last_ms', unit: 'ms', direction: 'lower' },
    { name: 'deep_page_ratio', unit: '×', direction: 'lower', target: { kind: 'absolute', max: 1.5 } },
    { name: 'page_100_ms', unit: 'ms', direction: 'lower' },
    { name: 'page_100_assoc_ms', unit: 'ms', direction: 'lower' },
    { name: 'assoc_ratio', unit: '×', direction: 'lower', target: { kind: 'absolute', max: 2 } },
  ],
  async setup(ctx) {
    baseline = await ctx.startBaseline('baselines/query-baseline.js', { DATABASE_URL: ctx.databaseUrl });
    await checkSameWork(ctx, baseline);
  },
  runService: (ctx) => measure('service', ctx),
  runBaseline: (ctx) => measure('baseline', ctx),
  async teardown() {
    await baseline?.stop();
    baseline = undefined;
    await direct?.db.close();
    direct = undefined;
  },
};
