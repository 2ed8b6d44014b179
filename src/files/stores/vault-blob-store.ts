import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, type Dirent } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import {
  BLOB_NAME,
  BlobIntegrityError,
  BlobMissingError,
  StoreUnavailableError,
  type BlobRange,
  type BlobSource,
  type BlobStore,
  type StoredObject,
} from './blob-store.js';

/** Read, hashed and written at a time when copying a file into the vault. */
const COPY_CHUNK = 1024 * 1024;
/** Where blobs are written before they take their name. */
const INCOMING = '.incoming';

/**
 * The filesystem store: a vault directory (local, or a volume several instances share) holding
 * each blob as a file named by its SHA-256, under two levels of folders by its first four hex
 * digits (ab/cd/abcd…) so that no folder grows past 65,536 entries per level.
 *
 * A blob is written under a temporary name in `.incoming`, flushed to disk (fsync), its size
 * checked, and only then renamed to its name, and the folder flushed too: a name in the vault
 * always means complete, durable bytes. Their SHA-256 is that of the bytes written: a spooled
 * upload and bytes in memory were hashed as they were received, from the very buffers written;
 * bytes copied from another file are hashed as they are copied. (Reading the file back to hash
 * it again read it from the page cache, not the disk, and cost a quarter of a large upload.)
 * A write that fails
 * or a process killed mid-write leaves at most a temporary file, which the sweep removes.
 * Files are never changed once named, so readers need no locks; several instances may write
 * the same blob at once, and the last rename wins with the same bytes.
 */
export class VaultBlobStore implements BlobStore {
  readonly name = 'filesystem';

  /** Where blobs are written before they take their name (and raw uploads spooled). */
  readonly incoming: string;

  constructor(readonly dir: string) {
    this.incoming = join(dir, INCOMING);
  }

  /** Creates the vault's folders and checks that they can be written (at start). */
  async open(): Promise<void> {
    try {
      await mkdir(this.incoming, { recursive: true, mode: 0o750 });
      const probe = join(this.incoming, `probe-${randomUUID()}`);
      const file = await open(probe, 'wx', 0o640);
      await file.close();
      await rm(probe, { force: true });
    } catch (e) {
      throw new StoreUnavailableError('filesystem', e);
    }
  }

  pathOf(sha256: string): string {
    return join(this.dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async has(sha256: string, size: number): Promise<boolean> {
    const info = await stat(this.pathOf(sha256)).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw new StoreUnavailableError('filesystem', e);
    });
    return info !== null && info.isFile() && info.size === size;
  }

  async write(source: BlobSource): Promise<void> {
    const temp = join(this.incoming, `${source.sha256}-${randomUUID()}`);
    try {
      // A raw upload spooled into `incoming` moves (the spool's dispose finds it gone); other
      // sources are copied.
      const spooled = 'path' in source && dirname(source.path) === this.incoming;
      if (spooled) await rename(source.path, temp);
      const file = await open(temp, spooled ? 'r+' : 'wx', 0o640);
      try {
        if (spooled) await file.chmod(0o640);
        else await copyInto(file, source);
        await file.sync();
        const { size } = await file.stat();
        if (size !== source.size) {
          throw new BlobIntegrityError(
            `the file written to the vault has ${size} bytes, not the ${source.size} of blob ${source.sha256}`,
          );
        }
      } finally {
        await file.close();
      }
      const target = this.pathOf(source.sha256);
      const folder = dirname(target);
      const created = await mkdir(folder, { recursive: true, mode: 0o750 });
      await rename(temp, target);
      await syncDir(folder);
      // New folders are entries of their parents, which must reach the disk too.
      if (created) {
        await syncDir(dirname(folder));
        await syncDir(this.dir);
      }
    } catch (e) {
      await rm(temp, { force: true }).catch(() => undefined);
      if (e instanceof BlobIntegrityError) throw e;
      throw new StoreUnavailableError('filesystem', e);
    }
  }

  async read(sha256: string, size: number, range?: BlobRange): Promise<Readable> {
    let file: FileHandle;
    try {
      file = await open(this.pathOf(sha256), 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobMissingError('filesystem', sha256);
      throw new StoreUnavailableError('filesystem', e);
    }
    const info = await file.stat();
    if (info.size !== size) {
      await file.close();
      throw new BlobIntegrityError(`blob ${sha256} in the vault has ${info.size} bytes, not ${size}`);
    }
    if (size === 0) {
      await file.close();
      return Readable.from([]);
    }
    // The file is immutable and its size checked: the stream cannot end short.
    return createReadStream('', { fd: file, start: range?.start ?? 0, end: range?.end ?? size - 1 });
  }

  async readWhole(sha256: string, size: number): Promise<Buffer> {
    const bytes = await readFile(this.pathOf(sha256)).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') throw new BlobMissingError('filesystem', sha256);
      throw new StoreUnavailableError('filesystem', e);
    });
    if (bytes.length !== size) throw new BlobIntegrityError(`blob ${sha256} in the vault has ${bytes.length} bytes`);
    return bytes;
  }

  async delete(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }

  /** Temporary files of writes (and spooled uploads) that a killed process left in `.incoming`. */
  async removeLeftovers(maxAgeMs: number): Promise<number> {
    const incoming = this.incoming;
    const cutoff = Date.now() - maxAgeMs;
    let removed = 0;
    for (const name of await readdir(incoming).catch(() => [])) {
      const path = join(incoming, name);
      const info = await stat(path).catch(() => null);
      if (info?.isFile() && info.mtimeMs < cutoff) {
        await rm(path, { force: true });
        removed++;
      }
    }
    return removed;
  }

  /**
   * The blobs in the vault, folder by folder in the order of their names (ab/cd/abcd…), each
   * with its size and mtime, in pages of at most LIST_PAGE. `.incoming` and names that are no
   * blob's are passed over; a file removed while the walk goes by is left out.
   */
  async *list(): AsyncGenerator<StoredObject[]> {
    for (const first of await hexFolders(this.dir)) {
      for (const second of await hexFolders(join(this.dir, first))) {
        const folder = join(this.dir, first, second);
        const names = (await readFolder(folder))
          .filter((e) => e.isFile() && BLOB_NAME.test(e.name) && e.name.startsWith(first + second))
          .map((e) => e.name)
          .sort();
        for (let i = 0; i < names.length; i += LIST_PAGE) {
          const page: StoredObject[] = [];
          for (const name of names.slice(i, i + LIST_PAGE)) {
            const info = await stat(join(folder, name)).catch((e: NodeJS.ErrnoException) => {
              if (e.code === 'ENOENT') return null;
              throw new StoreUnavailableError('filesystem', e);
            });
            if (info?.isFile()) page.push({ sha256: name, size: info.size, writtenAt: info.mtimeMs });
          }
          if (page.length) yield page;
        }
      }
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Blobs listed per page by VaultBlobStore.list. */
const LIST_PAGE = 1000;

async function readFolder(path: string): Promise<Dirent[]> {
  try {
    return await readdir(path, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new StoreUnavailableError('filesystem', e);
  }
}

/** The sub-folders of a vault level (two lowercase hex digits), in order. */
async function hexFolders(path: string): Promise<string[]> {
  return (await readFolder(path))
    .filter((e) => e.isDirectory() && /^[0-9a-f]{2}$/.test(e.name))
    .map((e) => e.name)
    .sort();
}

/** Writes the bytes; a file's are hashed on the way and must be those of the blob. */
async function copyInto(file: FileHandle, source: BlobSource): Promise<void> {
  if ('bytes' in source) {
    await file.writeFile(source.bytes);
    return;
  }
  const hash = createHash('sha256');
  let size = 0;
  const input = await open(source.path, 'r');
  try {
    const buf = Buffer.allocUnsafe(COPY_CHUNK);
    for (;;) {
      const { bytesRead } = await input.read(buf, 0, buf.length, size);
      if (bytesRead === 0) break;
      const piece = buf.subarray(0, bytesRead);
      hash.update(piece);
      await file.write(piece);
      size += bytesRead;
    }
  } finally {
    await input.close();
  }
  const digest = hash.digest('hex');
  if (size !== source.size || digest !== source.sha256) {
    throw new BlobIntegrityError(
      `the bytes written to the vault (${size} bytes, sha-256 ${digest}) are not those of blob ${source.sha256}`,
    );
  }
}

async function syncDir(path: string): Promise<void> {
  const dir = await open(path, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
