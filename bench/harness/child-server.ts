/** HTTP servers under test, each a separate Node process on a free loopback port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { memoryStatus } from './proc-stats.js';

export interface ChildServer {
  name: string;
  pid: number;
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** VmRSS in MiB once started and settled, before any load. */
  idleRssMb: number;
  /** Where its stdout and stderr go. */
  logFile: string;
  /** The last lines the process printed, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  script: string;
  env: Record<string, string>;
  /** Polled until it answers at all (any status): the server is listening. */
  readyPath: string;
  timeoutMs?: number;
  /** Default: a file in the system's temporary folder. */
  logFile?: string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startServer(opts: StartOptions): Promise<ChildServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env, PORT: String(port), HOST: '127.0.0.1' };
  // A test runner's NODE_OPTIONS (e.g. Jest's --experimental-vm-modules) must not reach the server.
  delete env.NODE_OPTIONS;
  // Output goes straight to a file: reading a pipe here would take CPU from the load generator
  // in this process, and a full pipe would block a server that logs every request.
  const logFile = opts.logFile ?? join(tmpdir(), `pdm-bench-${opts.name.replace(/\W+/g, '-')}-${process.pid}.log`);
  mkdirSync(dirname(logFile), { recursive: true });
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, [opts.script], { env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const output = () => tail(logFile, 40);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited(child);
    clearTimeout(timer);
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${opts.name} exited with code ${child.exitCode} while starting:\n${output()}`);
    try {
      await fetch(url + opts.readyPath, { signal: AbortSignal.timeout(2000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(
          `${opts.name} did not answer on ${url} within ${(opts.timeoutMs ?? 90_000) / 1000} s:\n${output()}`,
        );
      }
      await sleep(200);
    }
  }
  await sleep(1000); // let start-up work (module loading, first GC) settle before "idle"
  const idleRssMb = memoryStatus(child.pid!).rssKb / 1024;
  return { name: opts.name, pid: child.pid!, url, idleRssMb, logFile, output, stop };
}

/** The last lines of a log that may have grown large (a request log under load). */
function tail(file: string, lines: number): string {
  try {
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      const buf = Buffer.alloc(Math.min(size, 16_384));
      readSync(fd, buf, 0, buf.length, size - buf.length);
      return buf.toString('utf8').split('\n').filter(Boolean).slice(-lines).join('\n');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}
