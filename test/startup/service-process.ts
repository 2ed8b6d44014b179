import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The built service: `npm test` builds before Jest runs, so this is the code under test. */
export const MAIN = join(process.cwd(), 'dist/src/main.js');

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Its exit code once it ended (null when a signal ended it). */
  exited: Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Runs `node dist/src/main.js` with the test's environment plus `env` (undefined: unset); with
 * `clean`, with `env` and PATH and HOME only, as a user's shell starts `npm start`.
 */
export function startService(env: Record<string, string | undefined>, { clean = false } = {}): ServiceProcess {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first (npm test does)`);
  const base = clean ? { PATH: process.env.PATH, HOME: process.env.HOME } : process.env;
  const childEnv: NodeJS.ProcessEnv = { ...base, NO_COLOR: '1', ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const child = spawn(process.execPath, [MAIN], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/**
 * Resolves as soon as the output holds `text`; fails when the process exits first or after
 * `ms`, with the output so far.
 */
export function waitForOutput(s: ServiceProcess, text: string, ms = 90_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: string) => {
      clearTimeout(timer);
      s.child.stdout!.off('data', check);
      s.child.stderr!.off('data', check);
      s.child.off('exit', exit);
      if (error) reject(new Error(`"${text}" not seen: ${error}; output:\n${s.output()}`));
      else resolve();
    };
    // Listeners added after the ones collecting the output, so they see it complete.
    const check = () => {
      if (s.output().includes(text)) done();
    };
    const exit = () => done('the process exited');
    const timer = setTimeout(() => done(`not within ${ms} ms`), ms);
    s.child.stdout!.on('data', check);
    s.child.stderr!.on('data', check);
    s.child.on('exit', exit);
    if (s.output().includes(text)) done();
    else if (s.child.exitCode !== null || s.child.signalCode !== null) done('the process had exited');
  });
}

/**
 * Resolves once GET <base>/health/ready answers 200 (the database answers and the migrations are
 * applied); fails when the process exits first or after `ms`.
 */
export async function waitReady(s: ServiceProcess, port: number, basePath = '', ms = 90_000): Promise<void> {
  const until = Date.now() + ms;
  let last = 'no answer';
  for (;;) {
    if (s.child.exitCode !== null || s.child.signalCode !== null) {
      throw new Error(`the service exited before it was ready; output:\n${s.output()}`);
    }
    const res = await fetch(`http://127.0.0.1:${port}${basePath}/health/ready`).catch((e: Error) => e);
    if (!(res instanceof Error) && res.status === 200) return;
    last = res instanceof Error ? res.message : `status ${res.status}`;
    if (Date.now() > until) throw new Error(`not ready within ${ms} ms (${last}); output:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The built service on the embedded database, as `npm start` runs it: no DATABASE_URL. */
export interface EmbeddedService {
  service: ServiceProcess;
  port: number;
  /** http://127.0.0.1:<port> */
  base: string;
  dataDir: string;
}

/**
 * Starts `node dist/src/main.js` without DATABASE_URL on `dataDir` (default: a new temporary
 * folder) and a free port, plus `env`; resolves once it is ready. A start that fails or takes
 * longer than `ms` throws with the output (and the process is killed).
 */
export async function startEmbeddedService(
  env: Record<string, string | undefined> = {},
  dataDir = mkdtempSync(join(tmpdir(), 'pdm-embedded-service-')),
  ms = 180_000,
): Promise<EmbeddedService> {
  const port = await freePort();
  const service = startService({ DATABASE_URL: undefined, DATA_DIR: dataDir, PORT: String(port), ...env });
  try {
    await waitForOutput(service, 'serving on', ms);
    await waitReady(service, port, '', ms);
  } catch (e) {
    service.child.kill('SIGKILL');
    throw e;
  }
  return { service, port, base: `http://127.0.0.1:${port}`, dataDir };
}

/**
 * Sends SIGTERM and resolves with the exit code; fails when the process has not exited within
 * `ms` (it is then killed, so no test leaves it running).
 */
export async function stopService(s: ServiceProcess, ms = 30_000): Promise<number | null> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return s.exited;
  s.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const code = await Promise.race([s.exited, late]);
  clearTimeout(timer);
  if (code === 'late') {
    s.child.kill('SIGKILL');
    throw new Error(`the service did not exit within ${ms} ms of SIGTERM; output:\n${s.output().slice(-4000)}`);
  }
  return code;
}
