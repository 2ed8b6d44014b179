import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join, resolve } from 'node:path';

/** DATA_DIR cannot be created or written, or another process holds it. */
export class DataDirError extends Error {}

/** Who holds a data directory: written into its lock file. */
interface Holder {
  pid: number;
  host: string;
  /** Linux's id of the running boot: a pid from before a restart of the machine names nothing. */
  boot?: string;
  since: string;
  command: string;
}

export interface DataDirLock {
  /** The lock file. */
  path: string;
  /** Removes the lock file (when it is still this process's). */
  release(): void;
}

const LOCK_FILE = 'pdm.lock';

/** The lock files this process holds. */
const held = new Set<string>();

/**
 * Takes `dataDir` (DATA_DIR) for this process before the embedded database is opened there: PGlite
 * has no lock of its own, so a second process (another `npm start`, an `npm run import` while the
 * service runs) would open the same files as the first and both would write them. The lock file
 * names the holder; one left by a process that is gone (killed, crashed) is taken over. The lock
 * is released by `release()`, or at the latest when this process exits.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = resolve(dataDir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new DataDirError(`DATA_DIR ${dataDir}: cannot create the folder (${(e as Error).message})`);
  }
  const path = join(dir, LOCK_FILE);
  const own: Holder = {
    pid: process.pid,
    host: hostname(),
    boot: bootId(),
    since: new Date().toISOString(),
    command: process.argv
      .slice(1)
      .map((a, i) => (i === 0 ? basename(a) : a))
      .join(' '),
  };
  // Written whole under a name of its own, then linked into place: link fails when the lock file
  // exists, and a lock file is never seen half written.
  const draft = `${path}.${process.pid}`;
  try {
    writeFileSync(draft, JSON.stringify(own) + '\n');
  } catch (e) {
    throw new DataDirError(`DATA_DIR ${dataDir}: cannot write in the folder (${(e as Error).message})`);
  }
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(draft, path);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw e;
      }
      const holder = readHolder(path);
      if (holder && (held.has(path) || isAlive(holder))) {
        throw new DataDirError(
          `DATA_DIR ${dataDir} is in use by process ${holder.pid} on ${holder.host} (${holder.command}, ` +
            `since ${holder.since}): stop it first, or set DATA_DIR to another folder (lock file: ${path})`,
        );
      }
      // Left by a process that is gone (or removed meanwhile).
      rmSync(path, { force: true });
    }
    held.add(path);
  } catch (e) {
    if (e instanceof DataDirError) throw e;
    throw new DataDirError(`DATA_DIR ${dataDir}: cannot lock the folder (${(e as Error).message})`);
  } finally {
    unlinkSync(draft);
  }
  const release = () => {
    if (!held.delete(path)) return;
    process.off('exit', release);
    if (readHolder(path)?.pid === process.pid) unlinkSync(path);
  };
  process.on('exit', release);
  return { path, release };
}

function readHolder(path: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Holder;
    return Number.isSafeInteger(holder.pid) ? holder : undefined;
  } catch {
    return undefined; // gone meanwhile, or not a lock file this code wrote: taken over
  }
}

/**
 * Whether the holder still runs; on another host that cannot be told, so it is taken to. A holder
 * with this process's pid is gone: this process does not hold the lock (a container's main process
 * has the same pid at every start).
 */
function isAlive(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return false;
  if (holder.boot && holder.boot !== bootId()) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // runs, as another user
  }
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}
