import request from 'supertest';
import { readFileSync } from 'node:fs';
import { createTestApp, USERS } from './helpers/test-app.js';
import { useTestApp } from './helpers/use-test-app.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

describe('version endpoints', () => {
  const t = useTestApp();

  it.each(['reports', 'files', 'numbers', 'query'])('GET /%s/version returns the version record', async (service) => {
    const res = await request(t.http)
      .get(`/${service}/version`)
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['build', 'date', 'version']);
    expect(res.body.version).toBe(pkg.version);
    expect(Number.isInteger(res.body.build)).toBe(true);
    expect(res.body.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it.each(['reports', 'files', 'numbers', 'query'])('GET /%s/version needs credentials', async (service) => {
    const res = await request(t.http).get(`/${service}/version`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('computes no entity tag over JSON answers', async () => {
    const list = await request(t.http)
      .get('/reports')
      .auth(...USERS.alice);
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.items)).toBe(true);
    expect(list.headers.etag).toBeUndefined();
    const numbers = await request(t.http)
      .get('/numbers/version')
      .auth(...USERS.alice);
    expect(numbers.status).toBe(200);
    expect(numbers.headers['content-type']).toMatch(/^application\/json/);
    expect(numbers.headers.etag).toBeUndefined();
  });

  it('answers unknown routes 404 in the error envelope', async () => {
    const res = await request(t.http)
      .get('/files-nope/x')
      .auth(...USERS.alice);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: expect.any(String),
      requestId: res.headers['x-request-id'],
    });
  });

  it('serves every route under BASE_PATH when it is set', async () => {
    const prefixed = await createTestApp({ BASE_PATH: '/pdm' });
    try {
      const ok = await request(prefixed.http)
        .get('/pdm/numbers/version')
        .auth(...USERS.bob);
      expect(ok.status).toBe(200);
      expect(ok.body.version).toBe(pkg.version);
      const plain = await request(prefixed.http)
        .get('/numbers/version')
        .auth(...USERS.bob);
      expect(plain.status).toBe(404);
      const docs = await request(prefixed.http).get('/pdm/docs-json');
      expect(docs.status).toBe(200);
      expect(Object.keys(docs.body.paths)).toContain('/pdm/numbers/version');
    } finally {
      await prefixed.close();
    }
  });
});
