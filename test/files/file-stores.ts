import type pg from 'pg';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { FileContent } from '../../src/files/file-content.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { importFilesFixture, removeFilesFixture } from './files-fixtures.js';

/** A file store for a test: the variables that select it, and a way to remove it afterwards. */
export interface TestStore {
  name: 'postgres' | 'filesystem' | 's3';
  env: Record<string, string>;
  /** The vault directory (filesystem) or the s3rver data directory (s3). */
  dir: string | null;
  /** Stops the S3 server (the bytes stay), so that the store is unreachable. */
  stopServer(): Promise<void>;
  stop(): Promise<void>;
}

export const STORE_NAMES = ['postgres', 'filesystem', 's3'] as const;
export const BUCKET = 'pdm-test';

/**
 * postgres: nothing to set up; filesystem: a vault in a temporary directory; s3: s3rver (an
 * S3-compatible server from npm, on a free local port, keeping its objects in a temporary
 * directory) with a bucket of its own.
 */
export async function startTestStore(name: TestStore['name']): Promise<TestStore> {
  if (name === 'postgres') {
    return { name, env: { FILES_STORE: 'postgres' }, dir: null, stopServer: async () => {}, stop: async () => {} };
  }
  const dir = await mkdtemp(join(tmpdir(), `pdm-${name}-test-`));
  if (name === 'filesystem') {
    const env = { FILES_STORE: 'filesystem', FILES_VAULT_DIR: dir };
    return { name, env, dir, stopServer: async () => {}, stop: () => rm(dir, { recursive: true, force: true }) };
  }
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  let running = true;
  const stopServer = async () => {
    if (!running) return;
    running = false;
    // Clients keep connections alive, and close() would wait for them.
    const closed = server.close();
    server.httpServer?.closeAllConnections();
    await closed;
  };
  return {
    name,
    env: {
      FILES_STORE: 's3',
      FILES_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      FILES_S3_REGION: 'us-east-1',
      FILES_S3_BUCKET: BUCKET,
      FILES_S3_ACCESS_KEY_ID: 'S3RVER',
      FILES_S3_SECRET_ACCESS_KEY: 'S3RVER',
      FILES_S3_FORCE_PATH_STYLE: 'true',
      FILES_S3_PREFIX: 'blobs/',
    },
    dir,
    stopServer,
    stop: async () => {
      await stopServer();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Removes the rows of unused blobs recorded outside PostgreSQL: a test file's store goes with
 * it, and other test files (files:migrate's) expect every blob left to be readable.
 */
export async function removeStoreBlobs(db: pg.Pool): Promise<void> {
  await db.query(
    `DELETE FROM content_blobs b WHERE b.store <> 'postgres'
     AND NOT EXISTS (SELECT 1 FROM content_items ci WHERE ci.sha256 = b.sha256)`,
  );
}

/**
 * Makes the bytes of a blob in the store look written `ms` ago: the vault file's mtime, or the
 * file s3rver keeps the object in, whose mtime it answers as Last-Modified.
 */
export async function ageObject(store: TestStore, sha256: string, ms: number): Promise<void> {
  if (!store.dir) throw new Error('the postgres store has no objects to age');
  const path =
    store.name === 'filesystem'
      ? join(store.dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256)
      : join(store.dir, BUCKET, ...`${store.env.FILES_S3_PREFIX}${sha256}._S3rver_object`.split('/'));
  const when = new Date(Date.now() - ms);
  await utimes(path, when, when);
}

/** The application of a store test, with its store, a pool on the test database and its file content. */
export interface StoreTestApp extends TestApp {
  readonly store: TestStore;
  readonly db: pg.Pool;
  readonly content: FileContent;
}

/**
 * Before the tests of the enclosing block: the files fixture `fixture` (importFilesFixture), the
 * store `name` (startTestStore) and the application writing to it, with no memory or disk cache
 * (every download reads the store) and `env` added. After them: the application closes,
 * `cleanup` runs, then the fixture, the rows of the store's unused blobs and the store go.
 */
export function useStoreApp(
  name: TestStore['name'],
  opts: { fixture?: string; env?: Record<string, string>; cleanup?: (db: pg.Pool) => Promise<void> } = {},
): StoreTestApp {
  let app: TestApp | undefined;
  let store: TestStore | undefined;
  let db: pg.Pool | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('the store test application is not started: use it inside tests and hooks');
    return value;
  };
  beforeAll(async () => {
    db = testPool();
    if (opts.fixture) await importFilesFixture(opts.fixture);
    store = await startTestStore(name);
    app = await createTestApp({ ...store.env, FILES_CACHE_SIZE: '0', FILES_DISK_CACHE_SIZE: '0', ...opts.env });
  });
  afterAll(async () => {
    await app?.close();
    if (db) {
      await opts.cleanup?.(db);
      if (opts.fixture) await removeFilesFixture(db, opts.fixture);
      await removeStoreBlobs(db);
    }
    await store?.stop();
    await db?.end();
  });
  return {
    get app() {
      return ready(app).app;
    },
    get http() {
      return ready(app).http;
    },
    get config() {
      return ready(app).config;
    },
    close: () => ready(app).close(),
    get store() {
      return ready(store);
    },
    get db() {
      return ready(db);
    },
    get content() {
      return ready(app).app.get(FileContent);
    },
  };
}
