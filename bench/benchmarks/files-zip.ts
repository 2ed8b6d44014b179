/**
 * `files-zip`: ZIP downloads through the file service. `zip_100x1mib_mb_s`: the ZIP of one
 * document's hundred 1 MiB files (GET /files/<number>?format=zip as alice), downloaded again and
 * again on a few connections, beside a bare node:http server making the same archive of the
 * same bytes from disk with the same library and options (bench/baselines/files-zip-baseline.ts).
 * `collect_1gib_rss_growth_mib`: the growth of the server's resident memory (VmRSS sampled every
 * 20 ms) over its value before, while it streams a collection of 1 GiB (POST /files/collect of
 * an assembly whose eleven parts hold a 94 MiB file each, read from the PostgreSQL store), and
 * `collect_1gib_mb_s` its throughput; the baseline streams the same eleven files from disk.
 * Every archive is checked for its announced length. The benchmark's objects live in a container
 * of their own (bench-files-zip), removed afterwards with the blobs they used.
 * Targets: the 100 × 1 MiB ZIP at least 0.7 × the baseline, memory growth at most 64 MiB.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildServer } from '../harness/child-server.js';
import { withClient } from '../harness/database.js';
import { memoryStatus, resetPeak, RssSampler } from '../harness/proc-stats.js';
import type { Benchmark, BenchContext, RunSpec, Sample } from '../harness/types.js';
import { ALICE_BASIC, createBenchDocument, removeBenchFiles } from './common.js';
import { exchange } from './files.js';

const MiB = 1024 * 1024;
const CONTAINER = 'bench-files-zip';
const DOCUMENT = 'BENCH-ZIP-DOC';
const ASSEMBLY = 'BENCH-ZIP-ASM';
const SMALL = Array.from({ length: 100 }, (_, i) => `small-${String(i).padStart(3, '0')}.bin`);
const LARGE_COUNT = 11;
const LARGE_SIZE = 94 * MiB;
type Side = 'service' | 'baseline';

let baseline: ChildServer | undefined;
let dir = '';
let startedAt = new Date();

/** One ZIP request: its status, the bytes received and the Content-Length announced. */
function zipRequest(
  url: URL,
  agent: http.Agent,
  body?: unknown,
): Promise<{ status: number; bytes: number; length: number }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: http.OutgoingHttpHeaders = { authorization: ALICE_BASIC };
    if (text !== undefined) headers['content-type'] = 'application/json';
    const req = http.request(url, { method: text === undefined ? 'GET' : 'POST', agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () =>
        resolve({ status: res.statusCode!, bytes, length: Number(res.headers['content-length'] ?? -1) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(text);
  });
}

function checked(side: Side, what: string, r: { status: number; bytes: number; length: number }): number {
  if (r.status !== 200 || r.bytes !== r.length) {
    throw new Error(`${side} ${what}: ${r.status}, ${r.bytes} of ${r.length} bytes`);
  }
  return r.bytes;
}

function smallUrl(ctx: BenchContext, side: Side): URL {
  return side === 'service'
    ? new URL(`/files/${DOCUMENT}?format=zip`, ctx.service.url)
    : new URL('/zip/small', baseline!.url);
}

/** Repeated ZIPs of the hundred 1 MiB files on `connections` connections for `seconds`: MB/s. */
async function smallZips(ctx: BenchContext, side: Side, connections: number, seconds: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const url = smallUrl(ctx, side);
  const deadline = Date.now() + seconds * 1000;
  let bytes = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      do bytes += checked(side, url.pathname, await zipRequest(url, agent));
      while (Date.now() < deadline);
    }),
  );
  agent.destroy();
  return bytes / MiB / ((performance.now() - start) / 1000);
}

/** The 1 GiB collection once, with the server's RSS sampled: [MB/s, growth in MiB]. */
async function largeCollection(ctx: BenchContext, side: Side): Promise<[number, number]> {
  const server = side === 'service' ? ctx.service : baseline!;
  const agent = new http.Agent({ keepAlive: false });
  const before = memoryStatus(server.pid).rssKb / 1024;
  resetPeak(server.pid);
  const sampler = new RssSampler(server.pid, 20);
  let peak = before;
  let bytes = 0;
  const start = performance.now();
  try {
    bytes = checked(
      side,
      'collection',
      side === 'service'
        ? await zipRequest(new URL('/files/collect', server.url), agent, {
            root: ASSEMBLY,
            type: 'wt.part.WTPart',
            follow: ['structure'],
          })
        : await zipRequest(new URL('/zip/large', server.url), agent),
    );
  } finally {
    peak = sampler.stop();
  }
  if (bytes < LARGE_COUNT * LARGE_SIZE) throw new Error(`${side} collection: only ${bytes} bytes`);
  return [bytes / MiB / ((performance.now() - start) / 1000), Math.max(0, peak - before)];
}

async function measure(side: Side, ctx: BenchContext, run: RunSpec): Promise<Sample> {
  const connections = Math.min(ctx.connections, 4);
  const small = await smallZips(ctx, side, connections, Math.max(1, run.seconds / 2));
  const [large, growth] = await largeCollection(ctx, side);
  return { zip_100x1mib_mb_s: small, collect_1gib_mb_s: large, collect_1gib_rss_growth_mib: growth };
}

/**
 * The document with the hundred small files, and the assembly using eleven parts with a large
 * file each, all uploaded through the service; the same bytes written to `dir` for the baseline.
 */
async function prepare(ctx: BenchContext): Promise<void> {
  startedAt = new Date();
  await removeBenchFiles(ctx.databaseUrl, CONTAINER, startedAt);
  await createBenchDocument(ctx, CONTAINER, DOCUMENT, 'ZIP benchmark');
  await withClient(ctx.databaseUrl, async (c) => {
    const parts = [ASSEMBLY, ...Array.from({ length: LARGE_COUNT }, (_, i) => `${ASSEMBLY}-${i}`)];
    const ids = new Map<string, { master: number; iteration: number }>();
    for (const number of parts) {
      const master = await c.query<{ id: number }>(
        `INSERT INTO masters (class, number, name, container_id)
         SELECT 'wt.part.WTPart', $1, $1, id FROM containers WHERE name = $2 RETURNING id`,
        [number, CONTAINER],
      );
      const iteration = await c.query<{ id: number }>(
        "INSERT INTO iterations (master_id, created_by, modified_by) SELECT $1, id, id FROM users WHERE name = 'alice' RETURNING id",
        [master.rows[0].id],
      );
      ids.set(number, { master: master.rows[0].id, iteration: iteration.rows[0].id });
    }
    for (const number of parts.slice(1)) {
      await c.query("INSERT INTO usage_links (class, parent_id, child_id) VALUES ('wt.part.WTPartUsageLink', $1, $2)", [
        ids.get(ASSEMBLY)!.iteration,
        ids.get(number)!.master,
      ]);
    }
  });
  dir = await mkdtemp(join(tmpdir(), 'pdm-bench-zip-'));
  await mkdir(join(dir, 'small'));
  await mkdir(join(dir, 'large'));
  const agent = new http.Agent({ keepAlive: false });
  const upload = async (path: string, bytes: Buffer, target: URL) => {
    await writeFile(path, bytes);
    const r = await exchange(target, 'POST', agent, { path, size: bytes.length });
    if (r.status !== 201) throw new Error(`uploading ${target.pathname} to the service: ${r.status}`);
  };
  for (const name of SMALL) {
    await upload(join(dir, 'small', name), randomBytes(MiB), new URL(`/files/${DOCUMENT}/${name}`, ctx.service.url));
  }
  const large = randomBytes(LARGE_SIZE);
  for (let i = 0; i < LARGE_COUNT; i++) {
    large.writeUInt32BE(i); // distinct bytes: each file is its own blob
    const target = new URL(`/files/${ASSEMBLY}-${i}/large-${i}.bin?type=wt.part.WTPart`, ctx.service.url);
    await upload(join(dir, 'large', `large-${String(i).padStart(2, '0')}.bin`), large, target);
  }
}

export const filesZip: Benchmark = {
  name: 'files-zip',
  description: 'ZIP downloads: 100 × 1 MiB MB/s, and a 1 GiB collection (MB/s, RSS growth) vs. yazl over node:http',
  metrics: [
    { name: 'zip_100x1mib_mb_s', unit: 'MB/s', direction: 'higher', target: { kind: 'ratio', min: 0.7 } },
    { name: 'collect_1gib_mb_s', unit: 'MB/s', direction: 'higher' },
    { name: 'collect_1gib_rss_growth_mib', unit: 'MiB', direction: 'lower', target: { kind: 'absolute', max: 64 } },
  ],
  async setup(ctx) {
    await prepare(ctx);
    baseline = await ctx.startBaseline('baselines/files-zip-baseline.js', {
      DATABASE_URL: ctx.databaseUrl,
      FILES_DIR: dir,
    });
  },
  runService: (ctx, run) => measure('service', ctx, run),
  runBaseline: (ctx, run) => measure('baseline', ctx, run),
  async teardown(ctx) {
    await baseline?.stop();
    baseline = undefined;
    await removeBenchFiles(ctx.databaseUrl, CONTAINER, startedAt);
    if (dir) await rm(dir, { recursive: true, force: true });
  },
};
