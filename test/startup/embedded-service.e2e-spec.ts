import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEMO_DATASET } from '../../src/import/demo-seed.js';
import {
  startEmbeddedService,
  startService,
  stopService,
  waitForOutput,
  type EmbeddedService,
} from './service-process.js';

const run = promisify(execFile);
const ALICE = `Basic ${Buffer.from('alice:alice-pw').toString('base64')}`;
/** Demo document 0000000001 (alice is an author in its container), latest iteration. */
const DOC = '0000000001';
const HOLDER = 'OR:wt.doc.WTDocument:2';
/** Longest any one request may take before the test says the service hangs. */
const ANSWER_MS = 60_000;
/** The pools close connections idle this long (DB_POOL_IDLE_TIMEOUT_MS). */
const IDLE_MS = 300;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The built service as `npm start` runs it: `node dist/src/main.js` without DATABASE_URL, so on
 * the embedded database (PGlite) in a new DATA_DIR, with the demo data. Its first upload was
 * answered 503 and every later request hung, SIGTERM included (the start-up put PGlite's address
 * in DATABASE_URL, so the chunks were sent with COPY FROM, which PGlite cannot take): the tests
 * that ran on the embedded database set DATABASE_URL to its address themselves. Every request
 * here has a bounded wait: a hang fails with a message, not at Jest's timeout.
 */
describe('the service on the embedded database, as `npm start` runs it', () => {
  let s: EmbeddedService;
  /** Files uploaded, by name: served with the same bytes after a restart. */
  const uploaded = new Map<string, Buffer>();

  beforeAll(async () => {
    s = await startEmbeddedService({ DB_POOL_IDLE_TIMEOUT_MS: String(IDLE_MS) });
  }, 240_000);

  afterAll(async () => {
    s?.service.child.kill('SIGKILL');
    await s?.service.exited;
    if (s) rmSync(s.dataDir, { recursive: true, force: true });
  });

  /** fetch with a bounded wait: a request the service never answers fails the test. */
  async function call(path: string, init: RequestInit & { duplex?: 'half' } = {}): Promise<Response> {
    const method = init.method ?? 'GET';
    try {
      return await fetch(`${s.base}${path}`, {
        ...init,
        headers: { Authorization: ALICE, ...(init.headers as Record<string, string>) },
        signal: AbortSignal.timeout(ANSWER_MS),
      });
    } catch (e) {
      const why = (e as Error).name === 'TimeoutError' ? `no answer within ${ANSWER_MS} ms` : String(e);
      throw new Error(`${method} ${path}: ${why}; the service's output:\n${s.service.output().slice(-3000)}`);
    }
  }

  async function read(res: Response): Promise<{ status: number; body: unknown }> {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: compared as text
    }
    return { status: res.status, body };
  }

  /** A raw upload (`application/octet-stream`): with Content-Length, or chunked. */
  async function uploadRaw(name: string, bytes: Buffer, how: 'length' | 'chunked') {
    const body =
      how === 'length'
        ? bytes
        : new ReadableStream<Uint8Array>({
            start(controller) {
              for (let at = 0; at < bytes.length; at += 256 * 1024)
                controller.enqueue(bytes.subarray(at, at + 256 * 1024));
              controller.close();
            },
          });
    const res = await call(`/files/${DOC}/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body,
      duplex: 'half',
    });
    return { ...(await read(res)), etag: res.headers.get('etag') };
  }

  function created(name: string) {
    return {
      status: 201,
      body: {
        success: true,
        oid: expect.stringMatching(/^OR:wt\.content\.ApplicationData:\d+$/),
        url: `${s.base}/files/${DOC}/${name}`,
        holder: HOLDER,
      },
    };
  }

  /** Downloads the file and compares it with what was uploaded. */
  async function expectServed(name: string, bytes: Buffer) {
    const res = await call(`/files/${DOC}/${name}`);
    const got = Buffer.from(await res.arrayBuffer());
    expect({ status: res.status, etag: res.headers.get('etag'), size: got.length }).toEqual({
      status: 200,
      etag: `"${sha256(bytes)}"`,
      size: bytes.length,
    });
    expect(got.equals(bytes)).toBe(true);
  }

  async function expectUploadAndDownload(name: string, bytes: Buffer, how: 'length' | 'chunked') {
    const res = await uploadRaw(name, bytes, how);
    expect({ status: res.status, body: res.body }).toEqual(created(name));
    expect(res.etag).toBe(`"${sha256(bytes)}"`);
    uploaded.set(name, bytes);
    await expectServed(name, bytes);
  }

  it('takes a small raw upload (docs/walkthrough.md step 5) and serves its bytes', async () => {
    await expectUploadAndDownload('tensioner.txt', Buffer.from('Belt tension: 450 N at 20 C'), 'length');
    await expectUploadAndDownload('small-chunked.txt', Buffer.from('sent in chunks, without a length'), 'chunked');
  }, 180_000);

  it('takes raw uploads of more than 4 MiB, with Content-Length and chunked, and serves their bytes', async () => {
    await expectUploadAndDownload('large-length.bin', randomBytes(5 * 1024 * 1024 + 17), 'length');
    await expectUploadAndDownload('large-chunked.bin', randomBytes(6 * 1024 * 1024 + 5), 'chunked');
  }, 300_000);

  /** Starts a tus upload of `bytes` as `name`; returns its address. */
  async function tusCreate(name: string, bytes: Buffer): Promise<string> {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const res = await call('/files/tus', {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(bytes.length),
        'Upload-Metadata': `ref ${b64(DOC)},filename ${b64(name)}`,
      },
    });
    expect(res.status).toBe(201);
    return new URL(res.headers.get('location')!).pathname;
  }

  /** Sends bytes[from, to) of a tus upload; returns the answer. */
  async function tusPatch(path: string, bytes: Buffer, from: number, to: number) {
    const res = await call(path, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': String(from),
        'Content-Type': 'application/offset+octet-stream',
      },
      body: bytes.subarray(from, to),
    });
    return { ...(await read(res)), offset: res.headers.get('upload-offset'), etag: res.headers.get('etag') };
  }

  it('takes a resumable (tus) upload in parts, written as chunks with one INSERT each, and serves its bytes', async () => {
    const bytes = randomBytes(700_001);
    const path = await tusCreate('tus-parts.bin', bytes);
    // Parts that end inside a chunk: the next one completes it.
    expect(await tusPatch(path, bytes, 0, 300_000)).toEqual(expect.objectContaining({ status: 204, offset: '300000' }));
    expect(await tusPatch(path, bytes, 300_000, 550_000)).toEqual(
      expect.objectContaining({ status: 204, offset: '550000' }),
    );
    const done = await tusPatch(path, bytes, 550_000, bytes.length);
    expect({ status: done.status, body: done.body, etag: done.etag }).toEqual({
      ...created('tus-parts.bin'),
      status: 200,
      etag: `"${sha256(bytes)}"`,
    });
    uploaded.set('tus-parts.bin', bytes);
    await expectServed('tus-parts.bin', bytes);
  }, 180_000);

  it('takes the base64 upload of docs/files.md and serves the decoded bytes', async () => {
    // curl … -d "{\"data\": \"$(base64 -w0 report.pdf)\", \"role\": \"PRIMARY\", \"message\": \"new revision\"}"
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(40_000)]);
    const res = await call(`/files/${DOC}/report.pdf`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: bytes.toString('base64'), role: 'PRIMARY', message: 'new revision' }),
    });
    expect(await read(res)).toEqual(created('report.pdf'));
    uploaded.set('report.pdf', bytes);
    await expectServed('report.pdf', bytes);
    const list = await read(await call(`/files/${DOC}?role=PRIMARY`));
    expect(list).toEqual({
      status: 200,
      body: expect.objectContaining({
        items: expect.arrayContaining([
          expect.objectContaining({
            filename: 'report.pdf',
            role: 'PRIMARY',
            size: bytes.length,
            sha256: sha256(bytes),
          }),
        ]),
      }),
    });
  }, 180_000);

  /** Runs the README's report example (docs/examples/documents-by-number.qml). */
  async function report() {
    const res = await call('/reports?number=0000*', {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml' },
      body: readFileSync(join(process.cwd(), 'docs/examples/documents-by-number.qml')),
    });
    const { status, body } = await read(res);
    const { _runtime, ...rest } = body as { _runtime: number };
    return { status, body: rest };
  }

  const REPORT = {
    status: 200,
    body: {
      count: 6,
      items: expect.arrayContaining([
        [HOLDER, DOC, 'Drive unit specification', 'INWORK', expect.any(String)],
        ['OR:wt.doc.WTDocument:7', '0000000901', 'Standard fastener catalogue', 'RELEASED', expect.any(String)],
      ]),
    },
  };

  /** Reserves `count` numbers of Drive Unit's document rule. */
  async function numbers(count: number): Promise<string[]> {
    const res = await read(
      await call(`/numbers/generate/wt.doc.WTDocument?container-name=Drive%20Unit&count=${count}`, { method: 'POST' }),
    );
    expect(res).toEqual({ status: 200, body: expect.objectContaining({ count, items: expect.any(Array) }) });
    return (res.body as { items: string[] }).items;
  }

  it('runs a report, a query session and reserves numbers', async () => {
    expect(await report()).toEqual(REPORT);

    const q = JSON.stringify({ type: 'wt.doc.WTDocument', number: '00000000*', state: ['INWORK', 'RELEASED'] });
    const open = await read(await call(`/query/1.0/query?q=${encodeURIComponent(q)}&limit=2`));
    expect(open).toEqual({
      status: 200,
      body: expect.objectContaining({ session_id: expect.any(Number), total: 3, page: 0, count: 2 }),
    });
    const session = (open.body as { session_id: number }).session_id;
    const page = await read(await call(`/query/1.0/query/${session}?page=1&limit=2&close=1`));
    expect(page).toEqual({
      status: 200,
      body: expect.objectContaining({
        session_id: session,
        page: 1,
        count: 1,
        items: [expect.objectContaining({ number: '0000000004' })],
      }),
    });

    const reserved = await numbers(3);
    const first = Number(reserved[0]);
    expect(reserved).toEqual([first, first + 1, first + 2].map((n) => String(n).padStart(10, '0')));
  }, 180_000);

  it('answers uploads, downloads and reports after the pools closed their idle connections', async () => {
    // Well past DB_POOL_IDLE_TIMEOUT_MS: every pool has closed its connection to PGlite.
    await new Promise((r) => setTimeout(r, IDLE_MS * 5));
    expect(await read(await call('/health/ready'))).toEqual({
      status: 200,
      body: { status: 'ok', database: 'up', migrations: 'applied' },
    });
    await expectUploadAndDownload('after-idle.txt', Buffer.from('uploaded after the pool was idle'), 'length');
    await new Promise((r) => setTimeout(r, IDLE_MS * 5));
    await expectUploadAndDownload('after-idle-large.bin', randomBytes(4 * 1024 * 1024 + 1), 'chunked');
    await new Promise((r) => setTimeout(r, IDLE_MS * 5));
    expect(await report()).toEqual(REPORT);
  }, 300_000);

  it('refuses a second start and an import on the same DATA_DIR, naming the process that holds it', async () => {
    const holder = s.service.child.pid;
    const second = startService({ DATABASE_URL: undefined, DATA_DIR: s.dataDir, PORT: '0' });
    try {
      await waitForOutput(second, `DATA_DIR ${s.dataDir} is in use by process ${holder}`, ANSWER_MS);
      expect(await second.exited).toBe(1);
      // It stopped before it opened the database.
      expect(second.output()).not.toContain('using the embedded PostgreSQL');
    } finally {
      second.child.kill('SIGKILL'); // if it did open the database and went on
    }

    const imported = (await run(
      process.execPath,
      [join(process.cwd(), 'dist/src/import/import.cli.js'), DEMO_DATASET],
      {
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: s.dataDir },
        timeout: ANSWER_MS,
      },
    ).catch((e: unknown) => e)) as { code: number; stdout: string; stderr: string };
    expect({ code: imported.code, stdout: imported.stdout }).toEqual({ code: 1, stdout: '' });
    expect(imported.stderr).toContain(
      `import failed, nothing was stored: DATA_DIR ${s.dataDir} is in use by process ${holder} `,
    );

    // The running service was not disturbed.
    expect((await call('/health/ready')).status).toBe(200);
    await expectServed('tensioner.txt', uploaded.get('tensioner.txt') ?? Buffer.alloc(0));
  }, 180_000);

  it('checks a new document out and in, refusing others meanwhile, and serves its files as one ZIP', async () => {
    const json = { 'Content-Type': 'application/json' };
    const ADMIN = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
    const made = await read(
      await call('/objects', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          type: 'wt.doc.WTDocument',
          container: 'Drive Unit',
          number: 'EMB-CO-1',
          name: 'checked out',
        }),
      }),
    );
    expect(made).toEqual({ status: 201, body: expect.objectContaining({ number: 'EMB-CO-1', iteration: 1 }) });
    const out = await read(await call('/objects/EMB-CO-1/checkout', { method: 'POST' }));
    expect(out).toEqual({
      status: 200,
      body: expect.objectContaining({ iteration: 2, workingCopy: true, isCheckedOut: true, checkedOutBy: 'alice' }),
    });
    const bytes = randomBytes(300_000);
    const put = await call('/files/EMB-CO-1/drawing.bin', {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: bytes,
    });
    expect(put.status).toBe(201);
    // Another writer is refused while alice holds it, naming her.
    const refused = await read(
      await call('/files/EMB-CO-1/other.txt', {
        method: 'POST',
        headers: { Authorization: ADMIN, 'Content-Type': 'application/octet-stream' },
        body: 'x',
      }),
    );
    expect(refused).toEqual({
      status: 409,
      body: expect.objectContaining({ statusCode: 409, message: expect.stringContaining('alice') }),
    });
    const checkedIn = await read(
      await call('/objects/EMB-CO-1/checkin', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ message: 'drawn' }),
      }),
    );
    expect(checkedIn).toEqual({
      status: 200,
      body: expect.objectContaining({ iteration: 2, latest: true, workingCopy: false, isCheckedOut: false }),
    });
    // The checked-in iteration's files, as one ZIP with its manifest.
    const zip = await call('/files/EMB-CO-1?format=zip');
    const archive = Buffer.from(await zip.arrayBuffer());
    expect({
      status: zip.status,
      type: zip.headers.get('content-type'),
      length: zip.headers.get('content-length'),
    }).toEqual({ status: 200, type: 'application/zip', length: String(archive.length) });
    expect(archive.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(true);
    expect(archive.includes(bytes)).toBe(true); // stored, not compressed
    expect(archive.includes(Buffer.from('manifest.json'))).toBe(true);
    expect(archive.includes(Buffer.from(sha256(bytes)))).toBe(true);
  }, 180_000);

  it('stops on SIGTERM and, started again on the same DATA_DIR, serves the same data', async () => {
    await expectUploadAndDownload('before-restart.bin', randomBytes(5 * 1024 * 1024), 'length');
    const last = Number((await numbers(1))[0]);
    // A resumable upload under way: its running hash is lost with the process.
    const resumed = randomBytes(400_003);
    const tus = await tusCreate('tus-over-restart.bin', resumed);
    expect(await tusPatch(tus, resumed, 0, 100_000)).toEqual(expect.objectContaining({ status: 204 }));

    expect(await stopService(s.service)).toBe(0);
    const lock = join(s.dataDir, 'pdm.lock');
    expect(existsSync(lock)).toBe(false);
    // As a process killed without its clean-up would leave it: a lock of a process that is gone.
    const gone = await run(process.execPath, ['-p', 'process.pid']);
    writeFileSync(lock, JSON.stringify({ pid: Number(gone.stdout), host: hostname(), since: 'x', command: 'main.js' }));

    s = await startEmbeddedService({ DB_POOL_IDLE_TIMEOUT_MS: String(IDLE_MS) }, s.dataDir);
    expect(s.service.output()).toContain('no pending migrations: the database schema is up to date');
    expect(s.service.output()).not.toContain('loaded the demo data');
    for (const [name, bytes] of uploaded) await expectServed(name, bytes);
    const finished = await tusPatch(tus, resumed, 100_000, resumed.length);
    expect({ status: finished.status, etag: finished.etag }).toEqual({ status: 200, etag: `"${sha256(resumed)}"` });
    await expectServed('tus-over-restart.bin', resumed);
    expect(await numbers(1)).toEqual([String(last + 1).padStart(10, '0')]);
    expect(await report()).toEqual(REPORT);
    expect(await stopService(s.service)).toBe(0);
  }, 420_000);
});
