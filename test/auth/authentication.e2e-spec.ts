import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type pg from 'pg';
import { hashPassword } from '../../src/auth/password.js';
import { forgetSignInFailures } from '../helpers/sign-in-failures.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';

const CHALLENGE = 'Basic realm="pdm", charset="UTF-8", Bearer realm="pdm"';
const basic = (userPass: string) => `Basic ${Buffer.from(userPass, 'utf8').toString('base64')}`;

/** The 401 body without its per-request id. */
function withoutRequestId(body: Record<string, unknown>) {
  const { requestId, ...rest } = body;
  expect(typeof requestId).toBe('string');
  return rest;
}

describe('authentication', () => {
  let t: TestApp;
  let db: pg.Pool;
  const odd = { name: 'jörg-ünïcode', password: 'pa:ss wörd€:🙂' };

  beforeAll(async () => {
    db = testPool();
    await db.query(
      `INSERT INTO users (name, password_hash, full_name)
       VALUES ($1, $2, 'Jörg'), ('dora-disabled', $3, 'Dora'), ('burst-target', $4, 'Bert'), ('cached-victim', $5, 'Vic')
       ON CONFLICT (name) DO NOTHING`,
      [
        odd.name,
        await hashPassword(odd.password),
        await hashPassword('dora-pw'),
        await hashPassword('bert-pw'),
        await hashPassword('vic-pw'),
      ],
    );
    await db.query(`UPDATE users SET disabled = true WHERE name = 'dora-disabled'`);
    await forgetSignInFailures(db);
    t = await createTestApp({ AUTH_FAILURE_LIMIT: '3' });
  });
  afterAll(async () => {
    await t.close();
    await forgetSignInFailures(db);
    await db.end();
  });

  it('accepts valid credentials', async () => {
    const res = await request(t.http)
      .get('/files/version')
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('version');
  });

  it('accepts a password with colons and non-ASCII characters, and a non-ASCII user name', async () => {
    const res = await request(t.http)
      .get('/numbers/version')
      .set('Authorization', basic(`${odd.name}:${odd.password}`));
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('build');
  });

  it('answers every kind of bad credentials with the same 401', async () => {
    const cases: (string | undefined)[] = [
      undefined,
      'Basic !!!',
      basic('nobody:whatever'),
      basic('alice:wrong-password'),
      basic('dora-disabled:dora-pw'),
    ];
    const bodies = [];
    for (const header of cases) {
      const req = request(t.http).get('/query/version');
      const res = await (header === undefined ? req : req.set('Authorization', header));
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(CHALLENGE);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      bodies.push(withoutRequestId(res.body));
    }
    expect(bodies[0]).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'valid credentials are required (HTTP Basic, or a Bearer token)',
    });
    for (const b of bodies) expect(b).toEqual(bodies[0]);
  });

  it('slows down repeated failures with 429 and Retry-After, without locking out other users', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await request(t.http)
        .get('/files/version')
        .set('Authorization', basic('mallory:guess' + i));
      expect(res.status).toBe(401);
    }
    const blocked = await request(t.http).get('/files/version').set('Authorization', basic('mallory:guess-again'));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(blocked.body.message).toMatch(/retry after \d+ s/);

    const other = await request(t.http)
      .get('/files/version')
      .auth(...USERS.bob);
    expect(other.status).toBe(200);
  });

  it('needs credentials on every route, including unknown ones under a service', async () => {
    const res = await request(t.http).get('/reports/version').set('Authorization', 'Basic ');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it('counts each guess before checking it: 30 parallel guesses get no more than the limit', async () => {
    // One listening server for the burst: supertest given a bare server listens and closes it per
    // request, and a close drops the connections of the others that are not yet answered.
    await t.app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        request(base)
          .get('/files/version')
          .set('Authorization', basic(`burst-target:wrong-${i}`)),
      ),
    );
    const unauthorized = answers.filter((r) => r.status === 401);
    const throttled = answers.filter((r) => r.status === 429);
    expect(unauthorized.length).toBeLessThanOrEqual(3);
    expect(unauthorized.length + throttled.length).toBe(30);
    for (const r of throttled) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.body).toMatchObject({ statusCode: 429, message: expect.stringMatching(/^too many failed sign-ins/) });
    }
  });

  it('answers a throttled caller 429 for the right password too, while that user is signed in', async () => {
    const victim = () => request(t.http).get('/files/version').set('Authorization', basic('cached-victim:vic-pw'));
    expect((await victim()).status).toBe(200); // now cached
    for (let i = 0; i < 3; i++) {
      const res = await request(t.http)
        .get('/files/version')
        .set('Authorization', basic(`cached-victim:guess-${i}`));
      expect(res.status).toBe(401);
    }
    const wrong = await request(t.http).get('/files/version').set('Authorization', basic('cached-victim:guess-4'));
    const right = await victim();
    for (const res of [wrong, right]) {
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(withoutRequestId(res.body)).toEqual(withoutRequestId(wrong.body));
    }
  });
});
