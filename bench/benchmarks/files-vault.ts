/**
 * `files-vault`: uploads and downloads through the file service with FILES_STORE=filesystem (a
 * vault directory in the system's temporary folder), beside the `files` benchmark's baseline, a
 * bare node:http server writing uploads to disk and sending files with fs.createReadStream
 * (bench/baselines/files-baseline.ts). The service under test is a second instance of the
 * production build, started by this benchmark with the vault and without its memory and disk
 * caches, so every download reads the vault. Uploads are distinct 1 MiB bodies on several
 * connections and one 100 MiB body; downloads are 1 MiB files in turn and one 100 MiB file.
 * Unlike the baseline, the service hashes each upload, flushes it and its folder to disk
 * (fsync), checks its size and records it in PostgreSQL. Target: uploads, 1 MiB and 100 MiB,
 * at least 0.7 × the baseline.
 *
 * upload_1mib_durable_mb_s (no target) sets the same 1 MiB uploads of the service beside a
 * second instance of the baseline that does the durable part of that work too (FILES_DURABLE=1:
 * the file and its folder flushed to disk before the answer), so that what durability costs on
 * the machine is seen apart from what the service adds. Its service figure is the service's
 * upload_1mib_mb_s of the round; the durable baseline's uploads run in the baseline's turn.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildServer } from '../harness/child-server.js';
import { withClient } from '../harness/database.js';
import { createBenchDocument, removeBenchContainer } from './common.js';
import type { Benchmark, BenchContext, RunSpec, Sample } from '../harness/types.js';
import { exchange } from './files.js';

const MiB = 1024 * 1024;
const CONTAINER = 'bench-files-vault';
const NUMBER = 'BENCH-VAULT-1';
const SMALL = Array.from({ length: 16 }, (_, i) => `vault-1mib-${i}.bin`);
const LARGE = 'vault-100mib.bin';
type Side = 'service' | 'baseline' | 'durable';

let vaultService: ChildServer | undefined;
let baseline: ChildServer | undefined;
let durable: ChildServer | undefined;
let dir = '';
let vault = '';
let startedAt = new Date();

function url(side: Side, name: string): URL {
  if (side === 'service') return new URL(`/files/${NUMBER}/${name}`, vaultService!.url);
  return new URL(`/files/${name}`, (side === 'baseline' ? baseline : durable)!.url);
}

/** Runs `one` on `connections` connections for `seconds` (at least once each): MB/s. */
async function repeat(connections: number, seconds: number, one: (agent: http.Agent, c: number) => Promise<number>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = Date.now() + seconds * 1000;
  let bytes = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      do {
        // Not `bytes += await …`: that reads `bytes` before the request, and the connections'
        // requests overlap, so each would overwrite the others' counts.
        const sent = await one(agent, c);
        bytes += sent;
      } while (Date.now() < deadline);
    }),
  );
  agent.destroy();
  return bytes / MiB / ((performance.now() - start) / 1000);
}

function check(side: Side, what: string, r: { status: number; bytes: number }, ok: number[], size?: number): void {
  if (!ok.includes(r.status) || (size !== undefined && r.bytes !== size)) {
    throw new Error(`${side} ${what}: ${r.status}, ${r.bytes} bytes`);
  }
}

/** Distinct 1 MiB uploads (nothing deduplicated) on `connections` connections: MB/s. */
function smallUploads(side: Side, connections: number, seconds: number): Promise<number> {
  let counter = 0;
  const small = randomBytes(MiB);
  return repeat(connections, seconds, async (agent, c) => {
    const body = Buffer.from(small);
    body.writeDoubleBE(Date.now() + counter++ / 1e6);
    check(side, 'POST 1 MiB', await exchange(url(side, `up-${c}.bin`), 'POST', agent, body), [200, 201]);
    return body.length;
  });
}

async function measure(side: Side, ctx: BenchContext, run: RunSpec): Promise<Sample> {
  const connections = Math.min(ctx.connections, 8);
  const part = Math.max(1, run.seconds / 4);
  const upload1 = await smallUploads(side, connections, part);
  const upload1Durable = side === 'service' ? upload1 : await smallUploads('durable', connections, part);
  let next = 0;
  const download1 = await repeat(connections, part, async (agent) => {
    const r = await exchange(url(side, SMALL[next++ % SMALL.length]), 'GET', agent);
    check(side, 'GET 1 MiB', r, [200], MiB);
    return r.bytes;
  });
  const large = join(dir, 'upload-source.bin');
  const content = randomBytes(100 * MiB);
  await writeFile(large, content);
  const once = new http.Agent({ keepAlive: false });
  let start = performance.now();
  check(
    side,
    'POST 100 MiB',
    await exchange(url(side, 'up-large.bin'), 'POST', once, { path: large, size: content.length }),
    [200, 201],
  );
  const upload100 = content.length / MiB / ((performance.now() - start) / 1000);
  start = performance.now();
  check(side, 'GET 100 MiB', await exchange(url(side, LARGE), 'GET', once), [200], content.length);
  const download100 = content.length / MiB / ((performance.now() - start) / 1000);
  return {
    upload_1mib_mb_s: upload1,
    upload_1mib_durable_mb_s: upload1Durable,
    upload_100mib_mb_s: upload100,
    download_1mib_mb_s: download1,
    download_100mib_mb_s: download100,
  };
}

/** The benchmark's container and document, and its files in the folder both sides read. */
async function prepare(ctx: BenchContext): Promise<void> {
  startedAt = new Date();
  await removeObjects(ctx);
  await createBenchDocument(ctx, CONTAINER, NUMBER, 'vault benchmark');
  const agent = new http.Agent({ keepAlive: false });
  const files: [string, Buffer][] = [
    ...SMALL.map((n): [string, Buffer] => [n, randomBytes(MiB)]),
    [LARGE, randomBytes(100 * MiB)],
  ];
  for (const [name, bytes] of files) {
    await writeFile(join(dir, name), bytes);
    const r = await exchange(url('service', name), 'POST', agent, { path: join(dir, name), size: bytes.length });
    check('service', `POST ${name}`, r, [201]);
  }
}

/** The benchmark's objects and the blobs only they used (their bytes go with the vault). */
async function removeObjects(ctx: BenchContext): Promise<void> {
  await withClient(ctx.databaseUrl, async (c) => {
    await removeBenchContainer(c, CONTAINER);
    await c.query(
      `DELETE FROM content_blobs b WHERE b.store = 'filesystem' AND b.created_at >= $1
       AND NOT EXISTS (SELECT 1 FROM content_items i WHERE i.sha256 = b.sha256)`,
      [startedAt],
    );
  });
}

export const filesVault: Benchmark = {
  name: 'files-vault',
  description: 'file upload/download MB/s with FILES_STORE=filesystem (a vault) vs. a node:http fs server',
  metrics: [
    { name: 'upload_1mib_mb_s', unit: 'MB/s', direction: 'higher', target: { kind: 'ratio', min: 0.7 } },
    { name: 'upload_1mib_durable_mb_s', unit: 'MB/s', direction: 'higher' },
    { name: 'upload_100mib_mb_s', unit: 'MB/s', direction: 'higher', target: { kind: 'ratio', min: 0.7 } },
    { name: 'download_1mib_mb_s', unit: 'MB/s', direction: 'higher' },
    { name: 'download_100mib_mb_s', unit: 'MB/s', direction: 'higher' },
  ],
  async setup(ctx) {
    dir = await mkdtemp(join(tmpdir(), 'pdm-bench-vault-files-'));
    vault = await mkdtemp(join(tmpdir(), 'pdm-bench-vault-'));
    // The production build a second time, as a "baseline" process: with the vault, no caches.
    vaultService = await ctx.startBaseline('../src/main.js', {
      MIGRATE_ON_START: 'false',
      SEED_DEMO_DATA: 'false',
      FILES_STORE: 'filesystem',
      FILES_VAULT_DIR: vault,
      FILES_CACHE_SIZE: '0',
      FILES_DISK_CACHE_SIZE: '0',
      FILES_SWEEP_INTERVAL_MS: '0',
    });
    baseline = await ctx.startBaseline('baselines/files-baseline.js', { FILES_DIR: dir });
    durable = await ctx.startBaseline('baselines/files-baseline.js', { FILES_DIR: dir, FILES_DURABLE: '1' });
    await prepare(ctx);
  },
  runService: (ctx, run) => measure('service', ctx, run),
  runBaseline: (ctx, run) => measure('baseline', ctx, run),
  async teardown(ctx) {
    await vaultService?.stop();
    await baseline?.stop();
    await durable?.stop();
    vaultService = baseline = durable = undefined;
    await removeObjects(ctx);
    await rm(dir, { recursive: true, force: true });
    await rm(vault, { recursive: true, force: true });
  },
};
