import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = join(process.cwd(), 'dist/src/main.js');
const MIGRATIONS = readdirSync(join(process.cwd(), 'prisma/migrations'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string | undefined>): Started {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const child = spawn(process.execPath, [MAIN], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(s: Started, text: string, ms = 90_000): Promise<void> {
  const until = Date.now() + ms;
  while (!s.output().includes(text)) {
    if (Date.now() > until || s.child.exitCode !== null) throw new Error(`"${text}" not seen; output:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('starting the service', () => {
  it('refuses to start with bad configuration, listing every bad variable', async () => {
    const s = start({ PORT: 'abc', DB_POOL_MAX: '0', DATABASE_URL: 'mysql://x' });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain('invalid configuration');
    expect(s.output()).toContain('PORT: "abc" is not an integer');
    expect(s.output()).toContain('DATABASE_URL: must start with postgresql://');
    expect(s.output()).toContain('DB_POOL_MAX: 0 is not between 1 and 1000');
  });

  it('without DATABASE_URL runs on the embedded database with demo data, stops cleanly, and keeps its data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pdm-embedded-'));
    const port = await freePort();
    const env = { DATABASE_URL: undefined, DATA_DIR: dataDir, PORT: String(port) };
    const auth = `Basic ${Buffer.from('alice:alice-pw').toString('base64')}`;

    const first = start(env);
    await waitFor(first, 'serving on');
    expect(first.output()).toContain('loaded the demo data');
    expect(first.output()).toContain(`applied ${MIGRATIONS.length} migrations: ${MIGRATIONS.join(', ')}`);
    expect(first.output()).not.toContain('up to date');
    const res = await fetch(`http://127.0.0.1:${port}/files/version`, { headers: { Authorization: auth } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      version: expect.any(String),
      build: expect.any(Number),
      date: expect.any(String),
    });
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // One JSON line per request, with the id the response carried (written before the exit).
    const logged = first
      .output()
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({
        requestId: res.headers.get('x-request-id'),
        method: 'GET',
        path: '/files/version',
        status: 200,
        user: 'alice',
        durationMs: expect.any(Number),
      }),
    );

    const second = start(env);
    await waitFor(second, 'serving on');
    expect(second.output()).not.toContain('loaded the demo data');
    expect(second.output()).toContain('no pending migrations: the database schema is up to date');
    expect(second.output()).not.toContain('applied ');
    const again = await fetch(`http://127.0.0.1:${port}/numbers/version`, { headers: { Authorization: auth } });
    expect(again.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 180_000);
});
