import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { hashPassword } from '../../src/auth/password.js';
import { forgetSignInFailures } from '../helpers/sign-in-failures.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';

/**
 * Sign-in failures count per client address. Behind a load balancer every request comes from
 * the balancer's address, so TRUST_PROXY lets it name the client (X-Forwarded-For); without it
 * the header is ignored, so a client cannot escape the count by sending one.
 */
describe('the client address of sign-in counts (TRUST_PROXY)', () => {
  let pool: pg.Pool;
  let name: string;
  const attempt = (t: TestApp, from: string, password: string) =>
    request(t.http).get('/numbers/version').set('X-Forwarded-For', from).auth(name, password);

  beforeAll(async () => {
    pool = testPool();
    name = `client-address-${randomBytes(4).toString('hex')}`;
    await pool.query('INSERT INTO users (name, password_hash) VALUES ($1, $2)', [name, await hashPassword('right-pw')]);
  });
  afterAll(async () => {
    await forgetSignInFailures(pool);
    await pool.end();
  });

  it('counts per client named by a trusted proxy', async () => {
    const t = await createTestApp({ AUTH_FAILURE_LIMIT: '2', TRUST_PROXY: 'loopback' });
    try {
      for (let i = 0; i < 2; i++) expect((await attempt(t, '198.51.100.7', `no-${i}`)).status).toBe(401);
      expect((await attempt(t, '198.51.100.7', 'right-pw')).status).toBe(429);
      // The same user from another client behind the same balancer is not affected.
      expect((await attempt(t, '198.51.100.8', 'right-pw')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    const t = await createTestApp({ AUTH_FAILURE_LIMIT: '2' });
    try {
      for (let i = 0; i < 2; i++) expect((await attempt(t, `203.0.113.${i}`, `no-${i}`)).status).toBe(401);
      const res = await attempt(t, '203.0.113.99', 'right-pw');
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ statusCode: 429, message: expect.stringMatching(/^too many failed sign-ins/) });
    } finally {
      await t.close();
    }
  });
});
