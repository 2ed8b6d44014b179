import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  claimInstanceDir,
  heartbeat,
  OWNER_FILE,
  release,
  removeDeadInstances,
  STALE_MS,
  writeOwner,
} from './cache-instances.js';

/** A pid that ran and has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('instance folders of a shared disk-cache directory', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pdm-cache-instances-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function folder(name: string, owner: object | null, ageMs = 0): void {
    const dir = join(root, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'a'.repeat(64)), 'a copy');
    if (owner) writeFileSync(join(dir, OWNER_FILE), JSON.stringify(owner));
    const then = new Date(Date.now() - ageMs);
    if (owner) utimesSync(join(dir, OWNER_FILE), then, then);
    utimesSync(dir, then, then);
  }

  it('removes the folders of instances that are gone, and only those', async () => {
    const own = await claimInstanceDir(root);
    const host = hostname();
    const old = STALE_MS + 60_000;
    folder('instance-running', { host, pid: process.ppid }, old);
    folder('instance-exited', { host, pid: deadPid() });
    folder('instance-same-pid-earlier', { host, pid: process.pid });
    folder('instance-elsewhere-beating', { host: 'another-host', pid: process.pid }, STALE_MS - 60_000);
    folder('instance-elsewhere-silent', { host: 'another-host', pid: process.pid }, old);
    folder('instance-being-made', null);
    folder('instance-never-made', null, old);
    folder('instance-bad-owner', { host, pid: 0 }, old);
    writeFileSync(join(root, 'notes.txt'), 'not an instance');

    await removeDeadInstances(root);

    expect(readdirSync(root).sort()).toEqual(
      [
        own.slice(root.length + 1),
        'instance-being-made',
        'instance-elsewhere-beating',
        'instance-running',
        'notes.txt',
      ].sort(),
    );
    expect(readdirSync(own)).toEqual([OWNER_FILE]);
  });

  it('lets a released folder go, and keeps one of this process while in use', async () => {
    const first = await claimInstanceDir(root);
    const second = await claimInstanceDir(root);
    await removeDeadInstances(root);
    expect(readdirSync(root).sort()).toEqual([first, second].map((d) => d.slice(root.length + 1)).sort());
    release(first);
    await removeDeadInstances(root);
    expect(readdirSync(root)).toEqual([second.slice(root.length + 1)]);
    release(second);
  });

  it('tells by its heartbeat that a folder was removed, and takes it up again', async () => {
    const dir = await claimInstanceDir(root);
    expect(await heartbeat(dir)).toBe(true);
    rmSync(dir, { recursive: true });
    expect(await heartbeat(dir)).toBe(false);
    await writeOwner(dir);
    expect(await heartbeat(dir)).toBe(true);
    release(dir);
  });
});
