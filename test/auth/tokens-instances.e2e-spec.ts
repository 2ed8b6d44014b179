import { jest } from '@jest/globals';
import type pg from 'pg';
import request from 'supertest';
import { AuthNotices } from '../../src/auth/auth-notices.js';
import { AccessTokensRepository } from '../../src/auth/tokens/access-tokens.repository.js';
import { TokenAuthService } from '../../src/auth/tokens/token-auth.service.js';
import { pollUntil } from '../helpers/bounded-wait.js';
import { forgetSignInFailures } from '../helpers/sign-in-failures.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { embeddedTestRun, testPool } from '../helpers/test-database.js';
import { bearer, createToken, dropUsers, freshUser } from './tokens-fixtures.js';

const PREFIX = `toki${process.pid}`;
const TOKEN_REFUSED = 'the personal access token is not valid (unknown or revoked, or its user is disabled)';

/**
 * Tokens cached on several instances sharing one database: while an instance listens for the
 * database's notices a cached token costs no statement, and a revoked token, a disabled user or a
 * changed expiry reaches it by notice (`k<token id>`, `u<user id>`); one that does not listen
 * confirms every cached token with a statement.
 */
// The embedded database (a run without a PostgreSQL server) has no connection to keep listening.
(embeddedTestRun() ? describe.skip : describe)('personal access tokens on several instances', () => {
  let a: TestApp;
  let b: TestApp;
  let strict: TestApp;
  let db: pg.Pool;

  beforeAll(async () => {
    db = testPool();
    await forgetSignInFailures(db);
    a = await createTestApp();
    b = await createTestApp();
    strict = await createTestApp({ AUTH_NOTICES: 'false' });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await a.close();
    await b.close();
    await strict.close();
    await dropUsers(db, PREFIX);
    await db.end();
  });
  afterEach(() => jest.restoreAllMocks());

  const version = (t: TestApp, token: string) =>
    request(t.http).get('/numbers/version').set('Authorization', bearer(token));
  /** Resolves once `t` has received the notice `untrust` is called for. */
  const noticeOf = (t: TestApp, method: 'untrustToken' | 'untrustUser', id: number) => {
    const spy = jest.spyOn(t.app.get(TokenAuthService), method);
    return () => pollUntil(async () => spy.mock.calls.some((c) => c[0] === id), `the notice for ${id} arrives`);
  };

  it('a cached token costs no statement while the instance listens, one per request when it does not', async () => {
    const user = await freshUser(db, PREFIX);
    const { token } = await createToken(a.http, user, { name: 'cached', scopes: ['read'] });
    expect(b.app.get(AuthNotices).live).toBe(true);
    for (const t of [b, strict]) expect((await version(t, token)).status).toBe(200);
    const onB = jest.spyOn(b.app.get(AccessTokensRepository), 'check');
    const onStrict = jest.spyOn(strict.app.get(AccessTokensRepository), 'check');
    for (let i = 0; i < 5; i++) {
      const answers = await Promise.all([version(b, token), version(strict, token)]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
    }
    expect(onB).toHaveBeenCalledTimes(0);
    expect(onStrict).toHaveBeenCalledTimes(5);
  });

  it('a token revoked on one instance is refused by the others as soon as the notice arrives', async () => {
    const user = await freshUser(db, PREFIX);
    const { id, token } = await createToken(a.http, user, { name: 'revoked elsewhere', scopes: ['read'] });
    for (const t of [a, b, strict]) expect((await version(t, token)).status).toBe(200);
    const noticed = noticeOf(b, 'untrustToken', id);
    const revoked = await request(a.http)
      .delete(`/me/tokens/${id}`)
      .auth(...user);
    expect(revoked.status).toBe(204);
    // The instance that does not listen confirms every request: refused at its next one.
    const onStrict = await version(strict, token);
    expect([onStrict.status, onStrict.body.message]).toEqual([401, TOKEN_REFUSED]);
    const onA = await version(a, token);
    expect([onA.status, onA.body.message]).toEqual([401, TOKEN_REFUSED]);
    await noticed();
    const onB = await version(b, token);
    expect([onB.status, onB.body.message]).toEqual([401, TOKEN_REFUSED]);
  });

  it('a user disabled by plain SQL has their tokens refused once the notice arrives', async () => {
    const user = await freshUser(db, PREFIX);
    const { token } = await createToken(a.http, user, { name: 'disabled by SQL', scopes: ['write'] });
    expect((await version(b, token)).status).toBe(200);
    const { rows } = await db.query<{ id: number }>('SELECT id FROM users WHERE name = $1', [user[0]]);
    const noticed = noticeOf(b, 'untrustUser', rows[0].id);
    await db.query('UPDATE users SET disabled = true WHERE id = $1', [rows[0].id]);
    await noticed();
    const res = await version(b, token);
    expect([res.status, res.body.message]).toEqual([401, TOKEN_REFUSED]);
  });

  it('an expiry moved into the past by plain SQL is refused once the notice arrives', async () => {
    const user = await freshUser(db, PREFIX);
    const { id, token } = await createToken(a.http, user, { name: 'expired by SQL', scopes: ['read'] });
    expect((await version(b, token)).status).toBe(200);
    const noticed = noticeOf(b, 'untrustToken', id);
    await db.query("UPDATE access_tokens SET expires_at = now() - interval '1 minute' WHERE id = $1", [id]);
    await noticed();
    const res = await version(b, token);
    expect([res.status, res.body.message]).toEqual([401, 'the personal access token has expired: create a new one']);
  });
});
