import { createHash, randomBytes } from 'node:crypto';
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createTestApp, USERS } from '../helpers/test-app.js';
import { useStoreApp } from './file-stores.js';
import { binaryParser, itemsOf, oidOf } from './files-fixtures.js';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const DOC = 'wt.doc.WTDocument';

/** What a store that cannot be reached is answered with: 503, Retry-After, the error envelope. */
function expectStoreUnavailable(res: request.Response, store: string, outcome: string): void {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  const body: unknown = Buffer.isBuffer(res.body) ? JSON.parse(res.body.toString()) : res.body;
  expect(body).toEqual({
    statusCode: 503,
    error: 'Service Unavailable',
    message: `the file store (${store}) is unavailable${outcome}; retry shortly`,
    requestId: expect.any(String),
  });
}

describe.each(['filesystem', 's3'] as const)('the %s store unreachable', (storeName) => {
  const PREFIX = `FSO${storeName.slice(0, 2).toUpperCase()}`;
  const t = useStoreApp(storeName, { fixture: PREFIX });

  const upload = (name: string, bytes: Buffer) =>
    request(t.http)
      .post(`/files/${PREFIX}-1/${name}`)
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(bytes);
  const download = (name: string) =>
    request(t.http)
      .get(`/files/${PREFIX}-1/${name}`)
      .auth(...USERS.bob)
      .buffer(true)
      .parse(binaryParser);

  /** Makes the store fail: the S3 server stops; the vault directory becomes a plain file. */
  async function breakStore(): Promise<() => Promise<void>> {
    if (storeName === 's3') {
      await t.store.stopServer();
      return async () => {};
    }
    const dir = t.store.dir!;
    await rename(dir, `${dir}.away`);
    await writeFile(dir, 'not a directory');
    return async () => {
      await rm(dir);
      await rename(`${dir}.away`, dir);
    };
  }

  it('answers 503 and changes nothing, then reads what was stored before once the store is back', async () => {
    const stored = randomBytes(70_000);
    expect((await upload('before.bin', stored)).status).toBe(201);
    const oid = await oidOf(t.db, DOC, `${PREFIX}-1`);
    const before = await itemsOf(t.db, oid);
    const blobsBefore = await t.db.query('SELECT count(*)::int AS n FROM content_blobs');

    const repair = await breakStore();
    const fresh = randomBytes(50_000);
    expectStoreUnavailable(await upload('during.bin', fresh), storeName, '; nothing was stored');
    expectStoreUnavailable(await upload('before.bin', fresh), storeName, '; nothing was stored');
    expectStoreUnavailable(await download('before.bin'), storeName, '');
    // Nothing half-written: no content item changed, no blob recorded.
    expect(await itemsOf(t.db, oid)).toEqual(before);
    expect((await t.db.query('SELECT count(*)::int AS n FROM content_blobs')).rows[0].n).toBe(blobsBefore.rows[0].n);
    expect((await t.db.query('SELECT 1 FROM content_blobs WHERE sha256 = $1', [sha(fresh)])).rowCount).toBe(0);
    await repair();

    if (storeName === 'filesystem') {
      expect(await readdir(`${t.store.dir!}/.incoming`)).toEqual([]);
      const got = await download('before.bin');
      expect(got.status).toBe(200);
      expect(Buffer.compare(got.body as Buffer, stored)).toBe(0);
      expect((await upload('during.bin', fresh)).status).toBe(201);
    }
  });
});

describe('FILES_STORE at start', () => {
  it('refuses a vault directory that cannot be made', async () => {
    const file = join(tmpdir(), `pdm-not-a-dir-${Date.now()}`);
    await writeFile(file, 'a file, so no directory can be made under it');
    const dir = join(file, 'vault');
    try {
      await expect(createTestApp({ FILES_STORE: 'filesystem', FILES_VAULT_DIR: dir })).rejects.toThrow(
        `FILES_VAULT_DIR ${dir}: the file store (filesystem) is not available`,
      );
    } finally {
      await rm(file, { force: true });
    }
  });
});
