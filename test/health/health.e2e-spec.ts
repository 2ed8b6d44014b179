import request from 'supertest';
import { expectUnavailable } from '../helpers/expect-unavailable.js';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

describe('health probes', () => {
  const t = useTestApp();

  it('GET /health/live answers without credentials', async () => {
    const res = await request(t.http).get('/health/live');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /health/ready reports the database up and the migrations applied', async () => {
    const res = await request(t.http).get('/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up', migrations: 'applied' });
  });
});

describe('when the database is unreachable', () => {
  const t = useTestApp({
    DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/nowhere',
    DB_CONNECT_TIMEOUT_MS: '500',
  });

  it('GET /health/ready answers 503', async () => {
    const res = await request(t.http).get('/health/ready');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ status: 'unavailable', database: 'down', migrations: 'unknown' });
  });

  it('service requests answer 503 with Retry-After in the error envelope', async () => {
    const res = await request(t.http)
      .get('/files/version')
      .auth(...USERS.alice);
    expectUnavailable(res);
  });
});
