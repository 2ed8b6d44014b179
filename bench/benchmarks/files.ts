/**
 * `files`: download and upload throughput of a 1 MiB and a 100 MiB file through the file
 * service (GET and raw POST /files/<number>/<name> as alice), beside a bare node:http server
 * that serves the same bytes from disk with fs.createReadStream and writes uploads to disk
 * (bench/baselines/files-baseline.ts). Also the growth of the server's resident memory while
 * it sends and receives the 100 MiB file. The 1 MiB file, downloaded again and again, comes
 * from the service's memory after its first read (as the baseline's comes from the page cache);
 * download_1mib_uncached_mb_s downloads 96 distinct 1 MiB files in turn, more than that memory
 * holds by default, so each download reads the database. Likewise the 100 MiB file comes from
 * the service's disk cache after its first download (the baseline's from the page cache), and
 * download_100mib_first_mb_s is the first download of a 100 MiB file just uploaded, read from
 * the database. Every download is checked for its length, and both
 * sides' bytes are compared with the source by SHA-256 in setup.
 * The benchmark's document lives in a container of its own (bench-files), removed afterwards
 * with the blobs the uploads left. Targets: downloads at least 0.7 × the baseline, the 100 MiB
 * upload (into the PostgreSQL store) at least 0.5 × the baseline, memory growth under 64 MiB
 * while serving the 100 MiB file.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildServer } from '../harness/child-server.js';
import { withClient } from '../harness/database.js';
import { memoryStatus, resetPeak, RssSampler } from '../harness/proc-stats.js';
import type { Benchmark, BenchContext, RunSpec, Sample } from '../harness/types.js';
import { ALICE_BASIC, createBenchDocument, removeBenchFiles } from './common.js';

const MiB = 1024 * 1024;
const CONTAINER = 'bench-files';
const NUMBER = 'BENCH-FILES-1';
const FILES = { small: { name: 'bench-1mib.bin', size: MiB }, large: { name: 'bench-100mib.bin', size: 100 * MiB } };
/**
 * Distinct 1 MiB files, more than the service keeps in memory by default (FILES_CACHE_SIZE,
 * 64 MiB): downloaded in turn, each one has left that memory before it comes round again, so
 * every download reads the database.
 */
const UNCACHED = Array.from({ length: 96 }, (_, i) => `bench-1mib-${String(i).padStart(2, '0')}.bin`);
type Side = 'service' | 'baseline';

let service: ChildServer | undefined;
let baseline: ChildServer | undefined;
let dir = '';
let startedAt = new Date();
const content: { small: Buffer; large: Buffer } = { small: Buffer.alloc(0), large: Buffer.alloc(0) };

function fileUrl(side: Side, name: string): URL {
  const server = side === 'service' ? service! : baseline!;
  return new URL(side === 'service' ? `/files/${NUMBER}/${name}` : `/files/${name}`, server.url);
}

/** One request; resolves with the response's status, byte count and (optionally) SHA-256. */
export function exchange(
  url: URL,
  method: 'GET' | 'POST',
  agent: http.Agent,
  body?: Buffer | { path: string; size: number },
  hash = false,
): Promise<{ status: number; bytes: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { authorization: ALICE_BASIC };
    if (method === 'POST') {
      headers['content-type'] = 'application/octet-stream';
      headers['content-length'] = Buffer.isBuffer(body) ? body.length : body!.size;
    }
    const req = http.request(url, { method, agent, headers }, (res) => {
      const h = hash ? createHash('sha256') : null;
      let bytes = 0;
      res.on('data', (d: Buffer) => {
        bytes += d.length;
        h?.update(d);
      });
      res.on('end', () => resolve({ status: res.statusCode!, bytes, sha256: h?.digest('hex') ?? '' }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body && !Buffer.isBuffer(body)) createReadStream(body.path).pipe(req);
    else req.end(body);
  });
}

/**
 * Repeated downloads on `connections` connections for `seconds` (at least one each), of one
 * file or of several in turn: MB/s.
 */
async function downloads(
  side: Side,
  names: string[],
  size: number,
  connections: number,
  seconds: number,
): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const urls = names.map((name) => fileUrl(side, name));
  const deadline = Date.now() + seconds * 1000;
  let bytes = 0;
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      do {
        const url = urls[next++ % urls.length];
        const r = await exchange(url, 'GET', agent);
        if (r.status !== 200 || r.bytes !== size) {
          throw new Error(`${side} GET ${url.pathname}: ${r.status}, ${r.bytes} bytes`);
        }
        bytes += r.bytes;
      } while (Date.now() < deadline);
    }),
  );
  agent.destroy();
  return bytes / MiB / ((performance.now() - start) / 1000);
}

/** Repeated uploads of distinct 1 MiB bodies (so nothing is deduplicated): MB/s. */
async function smallUploads(side: Side, connections: number, seconds: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = Date.now() + seconds * 1000;
  let bytes = 0;
  let counter = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      do {
        const body = Buffer.from(content.small);
        body.writeDoubleBE(Date.now() + counter++ / 1e6);
        const r = await exchange(fileUrl(side, `upload-${c}.bin`), 'POST', agent, body);
        if (r.status !== 200 && r.status !== 201) throw new Error(`${side} POST upload-${c}.bin: ${r.status}`);
        bytes += body.length;
      } while (Date.now() < deadline);
    }),
  );
  agent.destroy();
  return bytes / MiB / ((performance.now() - start) / 1000);
}

/** Runs `work` while sampling the server's RSS; returns its result and the growth over the RSS before. */
async function withMemory<T>(server: ChildServer, work: () => Promise<T>): Promise<[T, number]> {
  const before = memoryStatus(server.pid).rssKb / 1024;
  resetPeak(server.pid);
  const sampler = new RssSampler(server.pid, 20);
  let peak = before;
  let result: T;
  try {
    result = await work();
  } finally {
    peak = sampler.stop();
  }
  return [result, Math.max(0, peak - before)];
}

async function measure(side: Side, ctx: BenchContext, run: RunSpec): Promise<Sample> {
  const server = side === 'service' ? ctx.service : baseline!;
  const connections = Math.min(ctx.connections, 8);
  const part = Math.max(1, run.seconds / 5);
  const small = await downloads(side, [FILES.small.name], MiB, connections, part);
  const uncached = await downloads(side, UNCACHED, MiB, connections, part);
  const [large, downloadGrowth] = await withMemory(server, () =>
    downloads(side, [FILES.large.name], FILES.large.size, 1, part),
  );
  const smallUp = await smallUploads(side, connections, part);
  const agent = new http.Agent({ keepAlive: false });
  content.large.writeDoubleBE(Date.now());
  await writeFile(join(dir, 'upload-source.bin'), content.large);
  const [largeUp, uploadGrowth] = await withMemory(server, async () => {
    const start = performance.now();
    const source = { path: join(dir, 'upload-source.bin'), size: FILES.large.size };
    const r = await exchange(fileUrl(side, 'upload-large.bin'), 'POST', agent, source);
    if (r.status !== 200 && r.status !== 201) throw new Error(`${side} POST upload-large.bin: ${r.status}`);
    return FILES.large.size / MiB / ((performance.now() - start) / 1000);
  });
  // The new file's first download: the service reads it from the database (and keeps a copy);
  // the baseline, which keeps no uploads, sends its 100 MiB file from the page cache.
  const firstName = side === 'service' ? 'upload-large.bin' : FILES.large.name;
  const firstStart = performance.now();
  const first = await exchange(fileUrl(side, firstName), 'GET', agent);
  if (first.status !== 200 || first.bytes !== FILES.large.size) {
    throw new Error(`${side} GET ${firstName}: ${first.status}, ${first.bytes} bytes`);
  }
  const firstDownload = FILES.large.size / MiB / ((performance.now() - firstStart) / 1000);
  await settleWrites(ctx);
  return {
    download_1mib_mb_s: small,
    download_1mib_uncached_mb_s: uncached,
    download_100mib_mb_s: large,
    download_100mib_rss_growth_mib: downloadGrowth,
    download_100mib_first_mb_s: firstDownload,
    upload_1mib_mb_s: smallUp,
    upload_100mib_mb_s: largeUp,
    upload_100mib_rss_growth_mib: uploadGrowth,
  };
}

/**
 * The uploads leave hundreds of megabytes for PostgreSQL (WAL, dirty pages, autovacuum) and the
 * page cache (the baseline's files) to write back. Without waiting for that, the next round's
 * downloads, whichever side is next, compete with it for the 2 cores: 20-40% less in later rounds.
 */
async function settleWrites(ctx: BenchContext): Promise<void> {
  await withClient(ctx.databaseUrl, async (c) => {
    await c.query('VACUUM (ANALYZE) blob_chunks, content_blobs, content_items');
    // CHECKPOINT needs a superuser or pg_checkpoint: without, the write-back is left to run.
    await c.query('CHECKPOINT').catch(() => undefined);
  });
  await new Promise<void>((resolve, reject) => execFile('sync', (e) => (e ? reject(e) : resolve())));
}

/** The benchmark's container (alice author) and document, with both files uploaded through the service. */
async function prepare(ctx: BenchContext): Promise<void> {
  startedAt = new Date();
  await removeBenchFiles(ctx.databaseUrl, CONTAINER, startedAt);
  await createBenchDocument(ctx, CONTAINER, NUMBER, 'file benchmark');
  dir = await mkdtemp(join(tmpdir(), 'pdm-bench-files-'));
  content.small = randomBytes(FILES.small.size);
  content.large = randomBytes(FILES.large.size);
  const agent = new http.Agent({ keepAlive: false });
  const files: [string, Buffer][] = [
    [FILES.small.name, content.small],
    [FILES.large.name, content.large],
    ...UNCACHED.map((name): [string, Buffer] => [name, randomBytes(MiB)]),
  ];
  for (const [name, bytes] of files) {
    await writeFile(join(dir, name), bytes);
    const r = await exchange(fileUrl('service', name), 'POST', agent, { path: join(dir, name), size: bytes.length });
    if (r.status !== 201) throw new Error(`uploading ${name} to the service: ${r.status}`);
  }
}

/** Both sides send exactly the source bytes. */
async function checkSameBytes(): Promise<void> {
  const agent = new http.Agent({ keepAlive: false });
  for (const file of ['small', 'large'] as const) {
    const expected = createHash('sha256').update(content[file]).digest('hex');
    for (const side of ['service', 'baseline'] as const) {
      const r = await exchange(fileUrl(side, FILES[file].name), 'GET', agent, undefined, true);
      if (r.status !== 200 || r.sha256 !== expected) {
        throw new Error(`${side} sends other bytes for ${FILES[file].name} (${r.status}, ${r.bytes} bytes)`);
      }
    }
  }
}

export const files: Benchmark = {
  name: 'files',
  description: 'file download/upload MB/s (1 MiB, 100 MiB) and RSS growth vs. a node:http fs.createReadStream server',
  metrics: [
    { name: 'download_1mib_mb_s', unit: 'MB/s', direction: 'higher', target: { kind: 'ratio', min: 0.7 } },
    { name: 'download_1mib_uncached_mb_s', unit: 'MB/s', direction: 'higher' },
    { name: 'download_100mib_mb_s', unit: 'MB/s', direction: 'higher', target: { kind: 'ratio', min: 0.7 } },
    { name: 'download_100mib_first_mb_s', unit: 'MB/s', direction: 'higher' },
    {
      name: 'download_100mib_rss_growth_mib',
      unit: 'MiB',
      direction: 'lower',
      target: { kind: 'absolute', max: 64 },
    },
    { name: 'upload_1mib_mb_s', unit: 'MB/s', direction: 'higher' },
    { name: 'upload_100mib_mb_s', unit: 'MB/s', direction: 'higher', target: { kind: 'ratio', min: 0.5 } },
    { name: 'upload_100mib_rss_growth_mib', unit: 'MiB', direction: 'lower' },
  ],
  async setup(ctx) {
    service = ctx.service;
    await prepare(ctx);
    baseline = await ctx.startBaseline('baselines/files-baseline.js', {
      DATABASE_URL: ctx.databaseUrl,
      FILES_DIR: dir,
    });
    await checkSameBytes();
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
