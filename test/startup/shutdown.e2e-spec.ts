import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type pg from 'pg';
import { importFilesFixture, itemsOf, oidOf, removeFilesFixture } from '../files/files-fixtures.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';

const PREFIX = 'SHUT';
const AUTH = `Basic ${Buffer.from('alice:alice-pw').toString('base64')}`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

describe('graceful shutdown', () => {
  let db: pg.Pool;
  beforeAll(async () => {
    db = testPool();
    await importFilesFixture(PREFIX);
  });
  afterAll(async () => {
    await removeFilesFixture(db, PREFIX);
    await db.end();
  });

  it('on SIGTERM finishes an upload in flight, refuses new connections, and exits 0', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [join(process.cwd(), 'dist/src/main.js')], {
      env: { ...process.env, DATABASE_URL: testDatabaseUrl(), PORT: String(port), MIGRATE_ON_START: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (let i = 0; i < 300 && !output.includes('serving on'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(output).toContain('serving on');

    const body = Buffer.alloc(2 * 1024 * 1024, 'x');
    const upload = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/files/${PREFIX}-1/in-flight.bin`,
      headers: { Authorization: AUTH, 'Content-Type': 'application/octet-stream', 'Content-Length': body.length },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      upload.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      upload.on('error', reject);
    });
    upload.write(body.subarray(0, body.length / 2));
    await new Promise((r) => setTimeout(r, 300));

    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    const refused = await fetch(`http://127.0.0.1:${port}/files/version`, { headers: { Authorization: AUTH } }).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).toBe('refused');

    upload.end(body.subarray(body.length / 2));
    const res = await answer;
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({ success: true });
    expect(await exited).toBe(0);

    const items = await itemsOf(db, await oidOf(db, 'wt.doc.WTDocument', `${PREFIX}-1`));
    expect(items.find((i) => i.file_name === 'in-flight.bin')).toMatchObject({ size: String(body.length) });
  }, 60_000);
});
