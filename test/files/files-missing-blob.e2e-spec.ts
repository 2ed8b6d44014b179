import { createHash, randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { jest } from '@jest/globals';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { STORE_NAMES, useStoreApp } from './file-stores.js';
import { binaryParser } from './files-fixtures.js';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Bytes removed from the store behind the service's back (a vault file deleted, an object gone
 * from the bucket, blob_chunks rows deleted): GET answered a bare 500 and HEAD 200. Both now say
 * what it is, 502 with the file's name, and the log names the blob.
 */
describe.each(STORE_NAMES)('a file whose bytes are missing from the %s store', (storeName) => {
  const PREFIX = `FMB${storeName.slice(0, 2).toUpperCase()}`;
  // No caches: every download asks the store.
  const t = useStoreApp(storeName, { fixture: PREFIX, env: { FILES_SWEEP_INTERVAL_MS: '0' } });
  const path = (name: string) => `/files/${PREFIX}-1/${name}`;
  const missing = (name: string) => ({
    statusCode: 502,
    error: 'Bad Gateway',
    message: `the content of ${name} is missing from the file store (${storeName})`,
    requestId: expect.any(String),
  });
  afterEach(() => jest.restoreAllMocks());

  /** Uploads `bytes` as `name`, then removes them from the store, leaving every row as it was. */
  async function uploadThenLose(name: string, bytes: Buffer): Promise<string> {
    const res = await request(t.http)
      .post(path(name))
      .auth(...USERS.alice)
      .set('Content-Type', 'application/octet-stream')
      .send(bytes);
    expect(res.status).toBe(201);
    const store = t.content.stores.get(storeName);
    await store.delete(sha(bytes));
    expect(await store.has(sha(bytes), bytes.length)).toBe(false);
    return sha(bytes);
  }

  const get = (name: string, headers: Record<string, string> = {}) =>
    request(t.http)
      .get(path(name))
      .auth(...USERS.bob)
      .set(headers)
      .buffer(true)
      .parse(binaryParser);

  it('answers GET, a ranged GET and HEAD 502 naming the file, and logs the blob', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const hash = await uploadThenLose('gone.bin', randomBytes(300_000));
    for (const headers of [{}, { Range: 'bytes=1000-' }] as Record<string, string>[]) {
      const res = await get('gone.bin', headers);
      expect(res.status).toBe(502);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse((res.body as Buffer).toString())).toEqual(missing('gone.bin'));
    }
    const head = await request(t.http)
      .head(path('gone.bin'))
      .auth(...USERS.bob);
    expect(head.status).toBe(502);
    expect(head.headers['content-type']).toMatch(/^application\/json/);
    expect(head.headers.etag).toBeUndefined();
    const logged = errors.mock.calls.map((call) => String(call[0]));
    expect(logged).toContainEqual(expect.stringContaining(`blob ${hash}`));
    expect(logged.every((line) => !line.includes('internal error'))).toBe(true);
  });

  it('answers HEAD 200 while the bytes are there', async () => {
    const bytes = randomBytes(1000);
    expect(
      (
        await request(t.http)
          .post(path('here.bin'))
          .auth(...USERS.alice)
          .set('Content-Type', 'application/octet-stream')
          .send(bytes)
      ).status,
    ).toBe(201);
    const head = await request(t.http)
      .head(path('here.bin'))
      .auth(...USERS.bob);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('1000');
    expect(head.headers.etag).toBe(`"${sha(bytes)}"`);
  });
});
