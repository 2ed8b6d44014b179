/**
 * `files-tus`: a 100 MiB file uploaded with the tus protocol in 5 MiB parts (POST /files/tus,
 * then 20 PATCH requests on one keep-alive connection) beside the same file uploaded raw in one
 * POST /files/<number>/<name>, both to the service under test (the default PostgreSQL store),
 * one after the other in the same round. The "baseline" is the raw upload: the target says what
 * resuming costs, at least 0.7 × the raw upload's MB/s. Each upload sends fresh random bytes (no
 * deduplication), and is checked: 200/201 and the SHA-256 the service reports.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Benchmark, BenchContext, Sample } from '../harness/types.js';
import { ALICE_BASIC, createBenchDocument, removeBenchFiles } from './common.js';

const MiB = 1024 * 1024;
const SIZE = 100 * MiB;
const PART = 5 * MiB;
const CONTAINER = 'bench-files-tus';
const NUMBER = 'BENCH-TUS-1';

let dir = '';
let startedAt = new Date();

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request with a body read from `file` (`start`, `length`), or none. */
function send(
  url: URL,
  method: string,
  agent: http.Agent,
  headers: http.OutgoingHttpHeaders,
  body?: { file: string; start: number; length: number },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: { authorization: ALICE_BASIC, 'content-length': body?.length ?? 0, ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (!body || body.length === 0) req.end();
    else createReadStream(body.file, { start: body.start, end: body.start + body.length - 1 }).pipe(req);
  });
}

function etagOf(answer: Answer, what: string, sha256: string): void {
  if (![200, 201].includes(answer.status) || answer.headers.etag !== `"${sha256}"`) {
    throw new Error(`${what}: ${answer.status} ${answer.headers.etag ?? ''} ${answer.body.slice(0, 300)}`);
  }
}

/** A fresh 100 MiB file to upload, and its SHA-256. */
async function source(): Promise<{ file: string; sha256: string }> {
  const bytes = randomBytes(SIZE);
  const file = join(dir, 'source.bin');
  await writeFile(file, bytes);
  return { file, sha256: createHash('sha256').update(bytes).digest('hex') };
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

async function tusUpload(ctx: BenchContext): Promise<Sample> {
  const { file, sha256 } = await source();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const start = performance.now();
    const created = await send(new URL('/files/tus', ctx.service.url), 'POST', agent, {
      'tus-resumable': '1.0.0',
      'upload-length': String(SIZE),
      'upload-metadata': `ref ${b64(NUMBER)},filename ${b64('tus-100mib.bin')}`,
    });
    if (created.status !== 201 || !created.headers.location) {
      throw new Error(`tus POST: ${created.status} ${created.body.slice(0, 300)}`);
    }
    const upload = new URL(created.headers.location, ctx.service.url);
    let last: Answer | undefined;
    let partsDone = 0;
    for (let offset = 0; offset < SIZE; offset += PART) {
      const length = Math.min(PART, SIZE - offset);
      if (offset + length >= SIZE) partsDone = performance.now();
      last = await send(
        upload,
        'PATCH',
        agent,
        {
          'tus-resumable': '1.0.0',
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        { file, start: offset, length },
      );
      if (offset + length < SIZE && last.status !== 204) {
        throw new Error(`tus PATCH at ${offset}: ${last.status} ${last.body.slice(0, 300)}`);
      }
    }
    etagOf(last!, 'tus last PATCH', sha256);
    const total = performance.now() - start;
    ctx.log(
      `files-tus: parts ${(partsDone - start).toFixed(0)} ms, last part and completion ${(total - partsDone + start).toFixed(0)} ms`,
    );
    return { upload_100mib_mb_s: SIZE / MiB / (total / 1000) };
  } finally {
    agent.destroy();
  }
}

async function rawUpload(ctx: BenchContext): Promise<Sample> {
  const { file, sha256 } = await source();
  const agent = new http.Agent({ keepAlive: false });
  const start = performance.now();
  const answer = await send(
    new URL(`/files/${NUMBER}/raw-100mib.bin`, ctx.service.url),
    'POST',
    agent,
    { 'content-type': 'application/octet-stream' },
    { file, start: 0, length: SIZE },
  );
  etagOf(answer, 'raw POST', sha256);
  return { upload_100mib_mb_s: SIZE / MiB / ((performance.now() - start) / 1000) };
}

export const filesTus: Benchmark = {
  name: 'files-tus',
  description: 'a 100 MiB tus upload in 5 MiB parts vs. the same upload raw in one POST (MB/s)',
  metrics: [{ name: 'upload_100mib_mb_s', unit: 'MB/s', direction: 'higher', target: { kind: 'ratio', min: 0.7 } }],
  async setup(ctx) {
    startedAt = new Date();
    dir = await mkdtemp(join(tmpdir(), 'pdm-bench-tus-'));
    await createBenchDocument(ctx, CONTAINER, NUMBER, 'tus benchmark');
  },
  runService: (ctx) => tusUpload(ctx),
  runBaseline: (ctx) => rawUpload(ctx),
  async teardown(ctx) {
    await removeBenchFiles(ctx.databaseUrl, CONTAINER, startedAt);
    if (dir) await rm(dir, { recursive: true, force: true });
  },
};
