import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Several instances may share one disk-cache directory (the default is the same for every
 * process on a host). Each keeps its copies in a folder of its own, `instance-<pid>-<random>`,
 * whose owner file names the host and process and is touched every minute. An instance removes
 * only folders whose owner is gone: on the same host a process that no longer runs, elsewhere
 * (another container, a shared volume) an owner file untouched for STALE_MS.
 */
export const INSTANCE_PREFIX = 'instance-';
export const OWNER_FILE = 'owner.json';
export const HEARTBEAT_MS = 60_000;
export const STALE_MS = 10 * HEARTBEAT_MS;

interface Owner {
  host: string;
  pid: number;
}

/** Instance folders of this process that are in use (a test runs several in one process). */
const live = new Set<string>();

/** Creates this instance's folder under `root` and registers it; returns its path. */
export async function claimInstanceDir(root: string): Promise<string> {
  const dir = join(root, `${INSTANCE_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  live.add(dir);
  await writeOwner(dir);
  return dir;
}

/** (Re)creates the folder and its owner file; the file's time is the heartbeat. */
export async function writeOwner(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const owner: Owner = { host: hostname(), pid: process.pid };
  await writeFile(join(dir, OWNER_FILE), JSON.stringify(owner), { mode: 0o600 });
}

/** Marks the folder alive; false when it is gone (removed by another instance that judged it dead). */
export async function heartbeat(dir: string): Promise<boolean> {
  const now = new Date();
  return utimes(join(dir, OWNER_FILE), now, now).then(
    () => true,
    () => false,
  );
}

/** The folder is no longer used by this process (its files stay for a later start to remove). */
export function release(dir: string): void {
  live.delete(dir);
}

/** Removes the instance folders under `root` whose owners are gone. */
export async function removeDeadInstances(root: string): Promise<void> {
  for (const name of await readdir(root)) {
    if (!name.startsWith(INSTANCE_PREFIX)) continue;
    const dir = join(root, name);
    if (await isDead(dir)) await rm(dir, { recursive: true, force: true });
  }
}

async function isDead(dir: string): Promise<boolean> {
  if (live.has(dir)) return false;
  const file = join(dir, OWNER_FILE);
  const [text, times] = await Promise.all([
    readFile(file, 'utf8').catch(() => null),
    stat(file).catch(() => stat(dir).catch(() => null)),
  ]);
  if (times === null) return false; // removed meanwhile
  const owner = parseOwner(text);
  if (owner?.host === hostname()) {
    // This process's pid but not one of its folders: a process before it had the same pid
    // (a container restarted keeps its host name, and its first process is pid 1 again).
    if (owner.pid === process.pid) return true;
    return !running(owner.pid);
  }
  // Another host, or a folder whose owner file is not written yet: only its heartbeat tells.
  return Date.now() - times.mtimeMs > STALE_MS;
}

function parseOwner(text: string | null): Owner | null {
  if (text === null) return null;
  try {
    const o = JSON.parse(text) as Partial<Owner>;
    return typeof o.host === 'string' && Number.isSafeInteger(o.pid) && o.pid! > 0 ? (o as Owner) : null;
  } catch {
    return null;
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, under another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
