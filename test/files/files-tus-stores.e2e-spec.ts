import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import request from 'supertest';
import { TusUploadsService } from '../../src/files/tus/tus-uploads.service.js';
import { USERS } from '../helpers/test-app.js';
import { binaryParser } from './files-fixtures.js';
import { useStoreApp } from './file-stores.js';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const b64 = (text: string) => Buffer.from(text).toString('base64');
const PREFIX = 'FTS';

/**
 * Resumable uploads with the vault and S3 as the store of new bytes: the parts go to a file of
 * FILES_TUS_DIR, hashed on the way; on completion the file is written to the store as a raw
 * upload's spooled file is, and goes.
 */
describe.each(['filesystem', 's3'] as const)('resumable uploads into the %s store', (storeName) => {
  const t = useStoreApp(storeName, { fixture: PREFIX, env: { FILES_SWEEP_INTERVAL_MS: '0' } });

  const patch = (location: string, offset: number, bytes: Buffer) =>
    request(t.http)
      .patch(new URL(location).pathname)
      .auth(...USERS.alice)
      .set('Tus-Resumable', '1.0.0')
      .set('Upload-Offset', String(offset))
      .set('Content-Type', 'application/offset+octet-stream')
      .send(bytes);

  it.each([
    ['with the running hash kept', false],
    ['after the running hash was lost', true],
  ])('writes the completed file to the store %s', async (_, forget) => {
    const content = randomBytes(500_000);
    const name = `tus-${storeName}-${forget ? 'rehashed' : 'hashed'}.bin`;
    const created = await request(t.http)
      .post('/files/tus')
      .auth(...USERS.alice)
      .set('Tus-Resumable', '1.0.0')
      .set('Upload-Length', String(content.length))
      .set('Upload-Metadata', `ref ${b64(`${PREFIX}-1`)},filename ${b64(name)}`);
    expect(created.status).toBe(201);
    expect(created.headers['upload-expires']).toEqual(expect.stringMatching(/ GMT$/));
    const location = created.headers.location;
    const id = location.split('/').pop()!;
    const first = await patch(location, 0, content.subarray(0, 123_457));
    expect(first.status).toBe(204);
    expect(await readdir(t.config.filesTusDir)).toContain(id);
    if (forget) t.app.get(TusUploadsService).store.hashes.clear();
    const done = await patch(location, 123_457, content.subarray(123_457));
    expect(done.status).toBe(200);
    expect(done.body).toEqual(expect.objectContaining({ success: true }));
    expect(done.headers.etag).toBe(`"${sha(content)}"`);

    const blob = await t.db.query<{ store: string }>('SELECT store FROM content_blobs WHERE sha256 = $1', [
      sha(content),
    ]);
    expect(blob.rows).toEqual([{ store: storeName }]);
    const chunks = await t.db.query(`SELECT 1 FROM content_blobs WHERE sha256 LIKE 'tus %'`);
    expect(chunks.rowCount).toBe(0);
    expect(await readdir(t.config.filesTusDir)).not.toContain(id);
    const got = await request(t.http)
      .get(`/files/${PREFIX}-1/${name}`)
      .auth(...USERS.alice)
      .buffer(true)
      .parse(binaryParser);
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBe(`"${sha(content)}"`);
    expect(Buffer.compare(got.body as Buffer, content)).toBe(0);
  });
});
