import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import request from 'supertest';
import { INSTANCE_PREFIX, OWNER_FILE } from '../../src/files/cache/cache-instances.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import {
  binaryParser,
  importFilesFixture,
  removeFilesFixture,
  restoreBlob,
  scribbleBlob,
  uploadRaw,
} from './files-fixtures.js';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Files over FILES_CACHE_MAX_FILE are kept on local disk once downloaded whole
 * (FILES_DISK_CACHE_DIR, FILES_DISK_CACHE_SIZE). As in files-cache.e2e-spec.ts, the stored bytes
 * are changed behind the service's back to see where a download's bytes come from.
 */
describe('files: the disk cache of larger files', () => {
  let db: pg.Pool;
  const apps: TestApp[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    await importFilesFixture('FD');
    db = testPool();
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await removeFilesFixture(db, 'FD');
    await db.end();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  function cacheDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'pdm-disk-cache-test-'));
    dirs.push(dir);
    return dir;
  }

  /** An app whose memory cache takes nothing over 1 KiB, with a disk cache in `dir`. */
  async function app(dir: string, env: Record<string, string> = {}): Promise<TestApp> {
    const t = await createTestApp({ FILES_CACHE_MAX_FILE: '1kb', FILES_DISK_CACHE_DIR: dir, ...env });
    apps.push(t);
    return t;
  }

  const download = (t: TestApp, name: string, headers: Record<string, string> = {}) =>
    request(t.http)
      .get(`/files/FD-1/${name}`)
      .auth(...USERS.bob)
      .set(headers)
      .buffer(true)
      .parse(binaryParser);

  /** The instance folders under a cache directory, each with the copies in it. */
  function folders(dir: string): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const name of readdirSync(dir).filter((n) => n.startsWith(INSTANCE_PREFIX))) {
      out[name] = readdirSync(join(dir, name))
        .filter((n) => n !== OWNER_FILE)
        .sort();
    }
    return out;
  }

  /** The copies an app keeps in a directory it has to itself. */
  function copies(dir: string): string[] {
    return Object.values(folders(dir)).flat().sort();
  }

  /**
   * The copy is renamed into place just after the download ends, and a copy of an abandoned one
   * removed once the server has seen the client go: polled for up to 10 s on a busy machine.
   */
  async function kept(dir: string, expected: string[]): Promise<void> {
    for (let i = 0; i < 500; i++) {
      if (JSON.stringify(copies(dir)) === JSON.stringify([...expected].sort())) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(copies(dir)).toEqual([...expected].sort());
  }

  it('keeps a file downloaded whole under its SHA-256 and sends it from there, whole and in ranges', async () => {
    const dir = cacheDir();
    const t = await app(dir);
    const bytes = randomBytes(600 * 1024 + 3);
    const hash = sha(bytes);
    await uploadRaw(t.http, 'FD-1', 'kept.bin', bytes);
    expect(copies(dir)).toEqual([]); // uploads keep nothing
    const first = await download(t, 'kept.bin');
    expect(first.status).toBe(200);
    expect((first.body as Buffer).equals(bytes)).toBe(true);
    await kept(dir, [hash]);

    await scribbleBlob(db, hash);
    try {
      const again = await download(t, 'kept.bin');
      expect(again.status).toBe(200);
      expect(again.headers['content-length']).toBe(String(bytes.length));
      expect(again.headers.etag).toBe(`"${hash}"`);
      expect((again.body as Buffer).equals(bytes)).toBe(true);
      const part = await download(t, 'kept.bin', { Range: 'bytes=262140-262150' });
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 262140-262150/${bytes.length}`);
      expect((part.body as Buffer).equals(bytes.subarray(262140, 262151))).toBe(true);
      // Permissions are checked before the copy is looked at.
      const outsider = await request(t.http)
        .get('/files/FD-1/kept.bin')
        .auth(...USERS.carol);
      expect(outsider.status).toBe(404);
      // An instance with a cache of its own reads the database.
      const other = await app(cacheDir());
      const fresh = await download(other, 'kept.bin');
      expect((fresh.body as Buffer).equals(Buffer.alloc(bytes.length))).toBe(true);
    } finally {
      await restoreBlob(db, hash, bytes);
    }
  });

  it('keeps nothing for a partial range, but does for a range of the whole file', async () => {
    const dir = cacheDir();
    const t = await app(dir);
    const bytes = randomBytes(300 * 1024);
    await uploadRaw(t.http, 'FD-1', 'ranged.bin', bytes);
    const part = await download(t, 'ranged.bin', { Range: 'bytes=10-20' });
    expect(part.status).toBe(206);
    expect((part.body as Buffer).equals(bytes.subarray(10, 21))).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(copies(dir)).toEqual([]);
    const all = await download(t, 'ranged.bin', { Range: 'bytes=0-' });
    expect(all.status).toBe(206);
    expect((all.body as Buffer).equals(bytes)).toBe(true);
    await kept(dir, [sha(bytes)]);
  });

  it('keeps the most recently used files within FILES_DISK_CACHE_SIZE', async () => {
    const dir = cacheDir();
    const t = await app(dir, { FILES_DISK_CACHE_SIZE: '700kb' });
    const a = randomBytes(400 * 1024);
    const b = randomBytes(400 * 1024);
    await uploadRaw(t.http, 'FD-1', 'a.bin', a);
    await uploadRaw(t.http, 'FD-1', 'b.bin', b);
    expect((await download(t, 'a.bin')).status).toBe(200);
    await kept(dir, [sha(a)]);
    expect((await download(t, 'b.bin')).status).toBe(200);
    await kept(dir, [sha(b)]);
    // a was dropped: it is read from the database (and kept) again.
    const again = await download(t, 'a.bin');
    expect((again.body as Buffer).equals(a)).toBe(true);
    await kept(dir, [sha(a)]);
  });

  it('keeps nothing of a download the client abandons', async () => {
    const dir = cacheDir();
    const t = await app(dir);
    const bytes = randomBytes(12 * 1024 * 1024);
    await uploadRaw(t.http, 'FD-1', 'abandoned.bin', bytes);
    const server = (t.app.getHttpServer() as http.Server).listen(0);
    const abandon = () =>
      new Promise<void>((resolve, reject) => {
        const port = (server.address() as AddressInfo).port;
        const req = http.get({ port, path: '/files/FD-1/abandoned.bin', auth: USERS.bob.join(':') }, (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
      });
    try {
      await abandon();
      await kept(dir, []);
      // The next whole download is kept; abandoning one sent from the copy harms nothing.
      const whole = await download(t, 'abandoned.bin');
      expect((whole.body as Buffer).equals(bytes)).toBe(true);
      await kept(dir, [sha(bytes)]);
      await abandon();
      const again = await download(t, 'abandoned.bin');
      expect(again.status).toBe(200);
      expect((again.body as Buffer).equals(bytes)).toBe(true);
      await kept(dir, [sha(bytes)]);
    } finally {
      server.close();
    }
  });

  it('removes copies an earlier version kept in the directory itself at start, and leaves other files alone', async () => {
    const dir = cacheDir();
    const stale = 'a'.repeat(64);
    writeFileSync(join(dir, stale), 'old copy');
    writeFileSync(join(dir, '.tmp-1234'), 'half a copy');
    writeFileSync(join(dir, 'notes.txt'), 'not the cache’s');
    await app(dir);
    const names = readdirSync(dir);
    expect(names).toHaveLength(2);
    expect(names).toContain('notes.txt');
    expect(names.find((n) => n !== 'notes.txt')).toMatch(new RegExp(`^${INSTANCE_PREFIX}${process.pid}-[0-9a-f]{8}$`));
  });

  it('shares a directory with another running instance without deleting its copies', async () => {
    const dir = cacheDir();
    const first = await app(dir);
    const bytes = randomBytes(300 * 1024);
    const hash = sha(bytes);
    await uploadRaw(first.http, 'FD-1', 'shared.bin', bytes);
    expect((await download(first, 'shared.bin')).status).toBe(200);
    await kept(dir, [hash]);
    const [firstFolder] = Object.keys(folders(dir));

    const second = await app(dir);
    const both = folders(dir);
    expect(Object.keys(both)).toHaveLength(2);
    expect(both[firstFolder]).toEqual([hash]);
    await scribbleBlob(db, hash);
    try {
      // The first still sends its copy; the second, with none of its own, reads the database.
      expect(((await download(first, 'shared.bin')).body as Buffer).equals(bytes)).toBe(true);
      expect(((await download(second, 'shared.bin')).body as Buffer).equals(Buffer.alloc(bytes.length))).toBe(true);
    } finally {
      await restoreBlob(db, hash, bytes);
    }
    // Closing an instance removes its own folder only.
    await second.close();
    apps.splice(apps.indexOf(second), 1);
    expect(folders(dir)).toEqual({ [firstFolder]: [hash] });
  });

  it('serves from the database when its directory cannot be used, or with FILES_DISK_CACHE_SIZE=0', async () => {
    const blocker = join(cacheDir(), 'a-file');
    writeFileSync(blocker, 'not a directory');
    const bytes = randomBytes(300 * 1024);
    const settings: Record<string, string>[] = [
      { FILES_DISK_CACHE_DIR: join(blocker, 'cache') },
      { FILES_DISK_CACHE_SIZE: '0' },
    ];
    for (const env of settings) {
      const dir = cacheDir();
      const t = await app(dir, env);
      await uploadRaw(t.http, 'FD-1', 'plain.bin', bytes);
      const res = await download(t, 'plain.bin');
      expect(res.status).toBe(200);
      expect((res.body as Buffer).equals(bytes)).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});
