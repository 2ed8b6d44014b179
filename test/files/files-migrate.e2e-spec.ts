import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import request from 'supertest';
import { migrateBlobs, type MigrationOptions } from '../../src/files/stores/blob-migration.js';
import { FileContent } from '../../src/files/file-content.js';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { startTestStore, type TestStore } from './file-stores.js';
import { binaryParser, importFilesFixture, restoreBlob, scribbleBlob } from './files-fixtures.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/files/stores/files-migrate.cli.js');
const PREFIX = 'FMIG';
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * Every blob of a database goes postgres → filesystem → s3 → postgres while the service
 * answers downloads: the last step through the command, as users run it. On a database of its
 * own: a move counts every blob, and other test files write and damage blobs of the run's
 * database meanwhile.
 */
describe('npm run files:migrate', () => {
  let vault: TestStore;
  let s3: TestStore;
  let t: TestApp;
  let scratch: ScratchDatabase;
  let db: pg.Pool;
  let content: FileContent;
  const files = new Map<string, Buffer>([
    ['small.txt', Buffer.from('a small file to move\n')],
    ['empty.bin', Buffer.alloc(0)],
    ['large.bin', randomBytes(9 * 1024 * 1024 + 5)],
  ]);

  beforeAll(async () => {
    scratch = await scratchDatabase({ demo: true });
    db = new pg.Pool({ connectionString: scratch.url, max: 2 });
    await importFilesFixture(PREFIX, scratch.url);
    vault = await startTestStore('filesystem');
    s3 = await startTestStore('s3');
    // Writes go to postgres; the other two stores are configured for reading and moving.
    t = await createTestApp({
      DATABASE_URL: scratch.url,
      ...s3.env,
      ...vault.env,
      FILES_STORE: 'postgres',
      FILES_CACHE_SIZE: '0',
      FILES_DISK_CACHE_SIZE: '0',
    });
    content = t.app.get(FileContent);
    for (const [name, bytes] of files) {
      const res = await request(t.http)
        .post(`/files/${PREFIX}-1/${name}`)
        .auth(...USERS.alice)
        .set('Content-Type', 'application/octet-stream')
        .send(bytes);
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
    await vault.stop();
    await s3.stop();
    await db.end();
    await scratch.drop();
  });

  const stores = async () =>
    (
      await db.query<{ store: string; n: number }>(
        'SELECT store, count(*)::int AS n FROM content_blobs GROUP BY store ORDER BY store',
      )
    ).rows;
  const migrate = (options: MigrationOptions) => migrateBlobs(content.stores, options);
  async function expectDownloads(): Promise<void> {
    for (const [name, bytes] of files) {
      const res = await request(t.http)
        .get(`/files/${PREFIX}-1/${name}`)
        .auth(...USERS.bob)
        .buffer(true)
        .parse(binaryParser);
      expect(res.status).toBe(200);
      expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    }
  }

  it('moves every blob, verifying digests; a damaged one stays until it is repaired and the move run again', async () => {
    const total = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM content_blobs')).rows[0].n;
    expect(await stores()).toEqual([{ store: 'postgres', n: total }]);
    const small = files.get('small.txt')!;
    await scribbleBlob(db, sha(small));

    const first = await migrate({ to: 'filesystem' });
    expect(first).toMatchObject({ moved: total - 1, failed: 1, skipped: 0 });
    expect(await stores()).toEqual([
      { store: 'filesystem', n: total - 1 },
      { store: 'postgres', n: 1 },
    ]);
    expect(await content.stores.get('filesystem').has(sha(small), small.length)).toBe(false);
    // The chunks of the moved blobs left PostgreSQL with the switch.
    const large = files.get('large.bin')!;
    expect((await db.query('SELECT 1 FROM blob_chunks WHERE sha256 = $1', [sha(large)])).rowCount).toBe(0);
    expect(await content.stores.get('filesystem').has(sha(large), large.length)).toBe(true);

    await restoreBlob(db, sha(small), small);
    const again = await migrate({ to: 'filesystem' });
    expect(again).toEqual({ moved: 1, bytes: small.length, skipped: 0, failed: 0, leftovers: 0 });
    expect(await stores()).toEqual([{ store: 'filesystem', n: total }]);
    await expectDownloads();

    const toS3 = await migrate({ to: 's3', from: 'filesystem' });
    expect(toS3).toMatchObject({ moved: total, failed: 0 });
    expect(await stores()).toEqual([{ store: 's3', n: total }]);
    expect(await content.stores.get('filesystem').has(sha(large), large.length)).toBe(false);
    await expectDownloads();

    const env = { ...process.env, ...s3.env, DATABASE_URL: scratch.url, LOG_LEVEL: 'silent' };
    const cli = await run('node', [CLI, '--to', 'postgres'], { env });
    expect(cli.stdout).toContain(`moved ${total} blobs`);
    expect(cli.stdout).toContain('to postgres; 0 deleted or moved meanwhile, 0 failed');
    expect(await stores()).toEqual([{ store: 'postgres', n: total }]);
    expect(await content.stores.get('s3').has(sha(large), large.length)).toBe(false);
    await expectDownloads();
  });

  it("removes at its start the temporary copy a killed run left, never a running one's", async () => {
    // A run killed midway leaves its copy, named by its process, in the temporary folder.
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.once('exit', resolve));
    const tempDir = await mkdtemp(join(tmpdir(), 'pdm-migrate-test-'));
    try {
      const left = join(tempDir, `pdm-migrate-${dead.pid}-${randomUUID()}`);
      const running = join(tempDir, `pdm-migrate-${process.pid}-${randomUUID()}`);
      const unrelated = join(tempDir, 'pdm-migrate-notes.txt');
      for (const path of [left, running, unrelated]) await writeFile(path, randomBytes(1000));

      const env = { ...process.env, DATABASE_URL: scratch.url, LOG_LEVEL: 'silent', TMPDIR: tempDir };
      const cli = await run('node', [CLI, '--to', 'postgres'], { env });
      expect(cli.stdout).toContain('removed 1 temporary copies left by an interrupted run');
      expect((await readdir(tempDir)).sort()).toEqual([basename(running), basename(unrelated)].sort());
      // The sweep of the service takes any copy left a day ago (removeStaleSpools).
      expect(await migrate({ to: 'postgres', tempDir })).toMatchObject({ moved: 0, leftovers: 0 });
    } finally {
      await rm(tempDir, { recursive: true, force: true });
    }
  });

  it('refuses bad arguments with the usage', async () => {
    const env = { ...process.env, DATABASE_URL: scratch.url };
    await expect(run('node', [CLI, '--to', 'tape'], { env })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        '--to: "tape" is not one of postgres, filesystem, s3\nusage: npm run files:migrate',
      ),
    });
    await expect(run('node', [CLI, '--to', 's3'], { env: { ...env, FILES_S3_BUCKET: '' } })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('this instance has no s3 store configured (FILES_S3_BUCKET)'),
    });
  });
});
