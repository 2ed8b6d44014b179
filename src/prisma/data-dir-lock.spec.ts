import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirError, lockDataDir } from './data-dir-lock.js';

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

describe('lockDataDir', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pdm-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a lock file naming this process, and removes it on release', () => {
    const lock = lockDataDir(dir);
    expect(lock.path).toBe(join(dir, 'pdm.lock'));
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toEqual({
      pid: process.pid,
      host: hostname(),
      boot: expect.any(String),
      since: expect.any(String),
      command: expect.any(String),
    });
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    lockDataDir(dir).release(); // free again
  });

  it('refuses a folder a running process holds, naming it', () => {
    const path = join(dir, 'pdm.lock');
    const holder = { pid: process.ppid, host: hostname(), since: '2026-01-02T03:04:05.000Z', command: 'main.js' };
    writeFileSync(path, JSON.stringify(holder));
    expect(() => lockDataDir(dir)).toThrow(
      new DataDirError(
        `DATA_DIR ${dir} is in use by process ${process.ppid} on ${hostname()} (main.js, since 2026-01-02T03:04:05.000Z): ` +
          `stop it first, or set DATA_DIR to another folder (lock file: ${path})`,
      ),
    );
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(holder); // left as it was
  });

  it('refuses a second lock in the same process', () => {
    const lock = lockDataDir(dir);
    try {
      expect(() => lockDataDir(dir)).toThrow(`is in use by process ${process.pid}`);
    } finally {
      lock.release();
    }
  });

  it.each([
    ['a process that has ended', () => ({ pid: deadPid(), host: hostname(), since: 'x', command: 'main.js' })],
    ['a process before the machine restarted', () => ({ pid: process.ppid, host: hostname(), boot: 'other' })],
    // A container's main process has the same pid after a restart.
    ['a process with this pid', () => ({ pid: process.pid, host: hostname(), since: 'x', command: 'main.js' })],
    ['a file that is no lock file', () => 'not JSON'],
  ])('takes over a lock left by %s', (_what, left) => {
    writeFileSync(join(dir, 'pdm.lock'), JSON.stringify(left()));
    const lock = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('names DATA_DIR when the folder cannot be created', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    expect(() => lockDataDir(join(file, 'data'))).toThrow(
      new DataDirError(
        `DATA_DIR ${join(file, 'data')}: cannot create the folder (ENOTDIR: not a directory, mkdir '${join(file, 'data')}')`,
      ),
    );
  });
});
