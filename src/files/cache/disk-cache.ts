import { randomUUID } from 'node:crypto';
import { close, closeSync, createWriteStream, fstatSync, open, read } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline, Transform, type Readable, type Writable } from 'node:stream';
import { promisify } from 'node:util';
import { LRUCache } from 'lru-cache';
import { PeriodicTask } from '../../common/periodic-task.js';
import {
  claimInstanceDir,
  HEARTBEAT_MS,
  heartbeat,
  release,
  removeDeadInstances,
  writeOwner,
} from './cache-instances.js';

const openFd = promisify(open);
const readFd = promisify(read);
const closeFd = promisify(close);

const CACHED_NAME = /^[0-9a-f]{64}$/;
const TEMP_PREFIX = '.tmp-';
/** A copy whose writing falls this far behind the download is given up, not waited for. */
const MAX_PENDING_WRITE = 16 * 1024 * 1024;
/** Bytes read from a kept copy and written to the client at a time, in two buffers taking turns. */
const SEND_CHUNK = 256 * 1024;

/**
 * Files read lately, kept on local disk under their SHA-256 in a directory of their own, up to a
 * byte budget (the least recently used go first); downloads of them are then sent from there
 * instead of the database. Stored bytes never change, so a kept copy is never out of date.
 *
 * A copy is written under a temporary name while a whole-file download streams from the
 * database, and takes its real name only when every byte arrived: an aborted download, a
 * failing or full disk, or a disk slower than the client leaves nothing behind and never
 * disturbs the download.
 *
 * Copies go to a folder of this instance's own under the configured directory, which other
 * instances on the host may share: at start (and every minute) only the folders of instances
 * that are gone are removed, never a running one's (see cache-instances.ts).
 */
export class DiskCache {
  /** Kept copies by SHA-256, with their sizes; dropping one removes its file. Null when the budget is 0. */
  private readonly entries: LRUCache<string, number> | null;
  private enabled = false;
  private warned = false;
  /** This instance's folder under root (set by start). */
  private dir = '';
  /** Every minute, from start: keeps this folder alive and removes those of instances gone. */
  private readonly keepAlive: PeriodicTask;

  constructor(
    /** The configured directory, shared with other instances. */
    readonly root: string,
    readonly budget: number,
    private readonly warn: (message: string) => void,
  ) {
    this.entries =
      budget > 0
        ? new LRUCache({
            maxSize: budget,
            // lru-cache needs positive sizes: an empty copy counts one byte.
            sizeCalculation: (size) => Math.max(size, 1),
            // A download reading the copy keeps its open file; the name goes at once.
            dispose: (_size, sha256) => void rm(join(this.dir, sha256), { force: true }),
          })
        : null;
    this.keepAlive = new PeriodicTask({
      name: 'the file cache heartbeat',
      intervalMs: HEARTBEAT_MS,
      run: () => this.beat(),
      onError: (e) => this.warnOnce(`the file cache directory ${this.root} could not be kept up: ${String(e)}`),
    });
  }

  /** This instance's folder, or null when the disk cache is off. */
  get folder(): string | null {
    return this.enabled ? this.dir : null;
  }

  async start(): Promise<void> {
    if (this.budget === 0) return;
    try {
      await mkdir(this.root, { recursive: true, mode: 0o700 });
      // Copies kept directly in the directory by versions before instance folders.
      for (const name of await readdir(this.root)) {
        if (CACHED_NAME.test(name) || name.startsWith(TEMP_PREFIX)) await rm(join(this.root, name), { force: true });
      }
      this.dir = await claimInstanceDir(this.root);
      await removeDeadInstances(this.root);
      this.enabled = true;
      this.keepAlive.start();
    } catch (e) {
      this.warn(`file cache directory ${this.root} is not usable, files are not cached on disk: ${String(e)}`);
    }
  }

  /** Stops the heartbeat (waiting for a beat under way) and removes this instance's copies. */
  async stop(): Promise<void> {
    await this.keepAlive.stop();
    if (!this.enabled) return;
    this.enabled = false;
    release(this.dir);
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }

  /** Keeps this folder alive, and takes it up again if another instance removed it meanwhile. */
  private async beat(): Promise<void> {
    if (!(await heartbeat(this.dir))) {
      this.entries?.clear();
      await writeOwner(this.dir);
    }
    await removeDeadInstances(this.root);
  }

  /** Whether a file of this size is kept once downloaded whole. */
  takes(size: number): boolean {
    return this.enabled && size <= this.budget;
  }

  /** Whether a copy of the blob is kept (read() still checks it). */
  holds(sha256: string): boolean {
    return this.entries?.has(sha256) ?? false;
  }

  /** The kept copy (or a range of it), opened, or null when there is none. */
  async read(sha256: string, size: number, range?: { start: number; end: number }): Promise<KeptFile | null> {
    if (!this.entries?.has(sha256)) return null;
    const fd = await openFd(join(this.dir, sha256), 'r').catch(() => null);
    if (fd === null || fstatSync(fd).size !== size) {
      if (fd !== null) closeSync(fd);
      this.entries.delete(sha256);
      return null;
    }
    this.entries.get(sha256); // now the most recently used
    return new KeptFile(fd, range?.start ?? 0, range?.end ?? size - 1);
  }

  /** `source` (the whole file, read from the database) passed through, keeping a copy on the way. */
  keep(sha256: string, size: number, source: Readable): Readable {
    const temp = join(this.dir, `${TEMP_PREFIX}${randomUUID()}`);
    const copy = createWriteStream(temp, { flags: 'wx', mode: 0o600 });
    let written = 0;
    let abandoned = false;
    const abandon = () => {
      if (abandoned) return;
      abandoned = true;
      copy.destroy();
      void rm(temp, { force: true });
    };
    copy.on('error', (e) => {
      this.warnOnce(`a file could not be kept in ${this.dir}: ${e.message}`);
      abandon();
    });
    const tee = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (!abandoned) {
          if (copy.writableLength > MAX_PENDING_WRITE) abandon();
          else {
            copy.write(chunk);
            written += chunk.length;
          }
        }
        done(null, chunk);
      },
      flush: (done) => {
        done();
        if (abandoned || written !== size) return abandon();
        copy.end(() => {
          if (abandoned) return;
          rename(temp, join(this.dir, sha256)).then(
            () => this.add(sha256, size),
            () => abandon(),
          );
        });
      },
    });
    // Either side failing or going away ends both, and the copy with them.
    return pipeline(source, tee, (e) => {
      if (e) abandon();
    });
  }

  /** Bytes of kept copies. */
  get size(): number {
    return this.entries?.calculatedSize ?? 0;
  }

  private add(sha256: string, size: number): void {
    if (!this.entries!.has(sha256)) this.entries!.set(sha256, size);
  }

  private warnOnce(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(message);
  }
}

/** An open kept copy and the bytes of it to send (inclusive). */
export class KeptFile {
  constructor(
    readonly fd: number,
    readonly start: number,
    readonly end: number,
  ) {}

  /**
   * Writes the bytes to `out` and ends it; closes the file in any case. Two buffers take turns,
   * each reused once its last write has gone to the socket: sending creates no garbage per
   * chunk. (A stream allocates a buffer per read, and on a large heap V8 then answers the
   * external memory with full collections, every few megabytes: half the throughput.)
   */
  async send(out: Writable): Promise<void> {
    const gone = new Promise<'gone'>((resolve) => out.once('close', () => resolve('gone')));
    const buffers = [Buffer.allocUnsafeSlow(SEND_CHUNK), Buffer.allocUnsafeSlow(SEND_CHUNK)];
    const written: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
    try {
      for (let position = this.start, turn = 0; position <= this.end; turn ^= 1) {
        if (out.destroyed || (await Promise.race([written[turn], gone])) === 'gone') return;
        const length = Math.min(SEND_CHUNK, this.end + 1 - position);
        const { bytesRead } = await readFd(this.fd, buffers[turn], 0, length, position);
        if (bytesRead !== length) throw new Error(`a kept file ended before byte ${this.end}`);
        const chunk = length === SEND_CHUNK ? buffers[turn] : buffers[turn].subarray(0, length);
        written[turn] = new Promise<void>((resolve, reject) => out.write(chunk, (e) => (e ? reject(e) : resolve())));
        written[turn].catch(() => undefined);
        position += length;
      }
      if ((await Promise.race([Promise.all(written), gone])) === 'gone') return;
      await Promise.race([new Promise<void>((resolve) => out.end(resolve)), gone]);
    } catch (e) {
      // A client that went away is not an error of the service (its writes fail with it).
      if (!out.destroyed) throw e;
    } finally {
      await closeFd(this.fd).catch(() => undefined);
    }
  }
}
