import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import request from 'supertest';
import { AUTH_NOTICES_APPLICATION } from '../../src/auth/auth-notices.repository.js';
import { AuthNotices } from '../../src/auth/auth-notices.js';
import { FailureThrottle } from '../../src/auth/failure-throttle.js';
import { hashPassword } from '../../src/auth/password.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { embeddedTestRun, testPool } from '../helpers/test-database.js';
import { forgetSignInFailures } from '../helpers/sign-in-failures.js';

/** Polls `check` until it is true or `ms` have passed; answers whether it became true. */
async function eventually(check: () => Promise<boolean> | boolean, ms = 5_000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Cached sign-ins and the database's notices (migration 20261125300000_auth_notices): while an
 * instance listens, a cached sign-in costs no statement, and a change of the user's row or a
 * failure count at its limit reaches it by notice; while it does not, each cached sign-in is
 * confirmed by a statement.
 */
// The embedded database (a run without a PostgreSQL server) has no connection to keep listening.
(embeddedTestRun() ? describe.skip : describe)('sign-in notices', () => {
  let a: TestApp;
  let b: TestApp;
  let strict: TestApp;
  let pool: pg.Pool;

  async function freshUser(): Promise<string> {
    const name = `notice-${randomBytes(4).toString('hex')}`;
    await pool.query('INSERT INTO users (name, password_hash) VALUES ($1, $2)', [name, await hashPassword('right-pw')]);
    return name;
  }
  const version = (t: TestApp, name: string, password: string) =>
    request(t.http).get('/numbers/version').auth(name, password);
  const confirmations = (t: TestApp) => jest.spyOn(t.app.get(FailureThrottle), 'confirm');
  const agents: http.Agent[] = [];
  /**
   * GET /numbers/version on one kept-alive connection to the instance: a cached sign-in is used
   * without a statement only on a connection already answered for those credentials (supertest
   * opens a connection per request).
   */
  async function onOneConnection(t: TestApp): Promise<(name: string, password: string) => Promise<number>> {
    // Listening as supertest does (every address), so that the client address is the same as
    // that of supertest's requests (the failure counts are per address).
    const server = t.app.getHttpServer() as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    return (name, password) =>
      new Promise((resolve, reject) => {
        const auth = `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
        http
          .get(
            { host: '127.0.0.1', port, path: '/numbers/version', agent, headers: { Authorization: auth } },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode!));
            },
          )
          .on('error', reject);
      });
  }

  beforeAll(async () => {
    pool = testPool();
    await forgetSignInFailures(pool);
    a = await createTestApp({ AUTH_FAILURE_LIMIT: '3', AUTH_CACHE_TTL_MS: '600000' });
    b = await createTestApp({ AUTH_FAILURE_LIMIT: '3', AUTH_CACHE_TTL_MS: '600000' });
    strict = await createTestApp({ AUTH_NOTICES: 'false', AUTH_CACHE_TTL_MS: '600000' });
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    for (const agent of agents) agent.destroy();
    await a.close();
    await b.close();
    await strict.close();
    await forgetSignInFailures(pool);
    await pool.end();
  });

  afterEach(() => jest.restoreAllMocks());

  it('a cached sign-in costs no statement while the instance listens, one per request when it does not', async () => {
    const name = await freshUser();
    expect(a.app.get(AuthNotices).live).toBe(true);
    expect(strict.app.get(AuthNotices).live).toBe(false);
    const [toA, toStrict] = [await onOneConnection(a), await onOneConnection(strict)];
    for (const send of [toA, toStrict]) expect(await send(name, 'right-pw')).toBe(200);
    const onA = confirmations(a);
    const onStrict = confirmations(strict);
    for (let i = 0; i < 10; i++)
      expect(await Promise.all([toA(name, 'right-pw'), toStrict(name, 'right-pw')])).toEqual([200, 200]);
    expect(onA).toHaveBeenCalledTimes(0);
    expect(onStrict).toHaveBeenCalledTimes(10);
    // On another connection (as every guess comes) the counts and the row are read first.
    expect((await version(a, name, 'right-pw')).status).toBe(200);
    expect(onA).toHaveBeenCalledTimes(1);
  });

  it('a password changed by plain SQL is refused by a listening instance once the notice arrived', async () => {
    const name = await freshUser();
    const toB = await onOneConnection(b);
    expect(await toB(name, 'right-pw')).toBe(200);
    await pool.query('UPDATE users SET password_hash = $2 WHERE name = $1', [name, await hashPassword('new-pw-42')]);
    // The cache would keep the old password ten minutes on the connection that signed in with it:
    // only the notice can end it there.
    expect(await eventually(async () => (await toB(name, 'right-pw')) === 401)).toBe(true);
    const fresh = await version(b, name, 'new-pw-42');
    expect(fresh.status).toBe(200);
  });

  it('failures on one instance reaching the limit get the right password cached on the other a 429', async () => {
    const name = await freshUser();
    const toB = await onOneConnection(b);
    expect(await toB(name, 'right-pw')).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await version(a, name, `wrong-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401]);
    // On a new connection, as a guess comes, the counts are read at once: no notice needed.
    const guess = await version(b, name, 'right-pw');
    expect(guess.status).toBe(429);
    expect(guess.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(Number(guess.headers['retry-after'])).toBeGreaterThan(0);
    // On the connection that signed in, once the notice of the limit reached has arrived.
    expect(await eventually(async () => (await toB(name, 'right-pw')) === 429)).toBe(true);
  });

  it('while the listening connection is lost, cached sign-ins are confirmed per request; once back, trusted again', async () => {
    const [gone, kept] = [await freshUser(), await freshUser()];
    const notices = b.app.get(AuthNotices);
    const toB = await onOneConnection(b);
    for (const name of [gone, kept]) expect((await version(b, name, 'right-pw')).status).toBe(200);
    expect(await toB(kept, 'right-pw')).toBe(200);
    // Ends every listening connection of the test database, as a restarted server or network would.
    await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
      [AUTH_NOTICES_APPLICATION],
    );
    expect(await eventually(() => !notices.live)).toBe(true);
    await pool.query('UPDATE users SET disabled = true WHERE name = $1', [gone]);
    // No notice can come now: the refusal comes from the statement that confirms the cached sign-in.
    expect((await version(b, gone, 'right-pw')).status).toBe(401);
    expect(await eventually(() => notices.live, 10_000)).toBe(true);
    // Notices may have been missed meanwhile: each cached sign-in is confirmed once, then trusted.
    const spy = confirmations(b);
    for (let i = 0; i < 3; i++) expect(await toB(kept, 'right-pw')).toBe(200);
    expect(spy).toHaveBeenCalledTimes(1);
  });
});
