import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { TOKEN_PATTERN } from '../../src/auth/tokens/token-format.js';
import { AccessTokensRepository } from '../../src/auth/tokens/access-tokens.repository.js';
import { pollUntil } from '../helpers/bounded-wait.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { interleave } from '../helpers/interleave.js';
import { LOCK_WAIT_MS, lockWaiters, withinMs } from '../helpers/bounded-wait.js';
import { forgetSignInFailures } from '../helpers/sign-in-failures.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { bearer, createToken, dropUsers, freshUser } from './tokens-fixtures.js';

const PREFIX = `tok${process.pid}`;
const DAY_MS = 86_400_000;
const TOKEN_REFUSED = 'the personal access token is not valid (unknown or revoked, or its user is disabled)';

function withoutRequestId(body: Record<string, unknown>) {
  const { requestId, ...rest } = body;
  expect(typeof requestId).toBe('string');
  return rest;
}

describe('personal access tokens', () => {
  let t: TestApp;
  let db: pg.Pool;
  const clock = new FakeClock();

  beforeAll(async () => {
    db = testPool();
    await forgetSignInFailures(db);
    t = await createTestApp({ AUTH_TOKEN_MAX_DAYS: '90', AUTH_TOKEN_LIMIT: '3' }, { clock });
  });
  afterAll(async () => {
    await t.close();
    await dropUsers(db, PREFIX);
    await forgetSignInFailures(db);
    await db.end();
  });

  const version = (token: string) => request(t.http).get('/numbers/version').set('Authorization', bearer(token));
  const events = async (action: string, userName: string) =>
    (
      await db.query(
        `SELECT e.user_name, e.detail FROM audit_events e JOIN users u ON u.id = e.object_id
         WHERE e.action = $1 AND u.name = $2 ORDER BY e.id`,
        [action, userName],
      )
    ).rows;

  it('creates a token shown once, stores only its SHA-256, lists it without the secret', async () => {
    const user = await freshUser(db, PREFIX);
    const created = await request(t.http)
      .post('/me/tokens')
      .auth(...user)
      .send({ name: 'ci export', expiresInDays: 30, scopes: ['write'] });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    expect(token).toMatch(TOKEN_PATTERN);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'ci export',
      scopes: ['read', 'write'],
      hint: token.slice(-4),
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      lastUsedAt: null,
      token,
    });

    // 30 days from now (createdAt is the database's time, expiresAt the service's).
    const lifetime = Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt);
    expect(Math.abs(lifetime - 30 * DAY_MS)).toBeLessThan(60_000);

    const { rows } = await db.query('SELECT * FROM access_tokens WHERE id = $1', [created.body.id]);
    expect(rows[0].secret_hash).toEqual(createHash('sha256').update(token).digest());
    expect(JSON.stringify(rows[0])).not.toContain(token.slice(8, 40));

    const used = await version(token);
    expect(used.status).toBe(200);
    expect(used.body).toHaveProperty('version');

    await pollUntil(
      async () =>
        (await db.query('SELECT last_used_at FROM access_tokens WHERE id = $1', [created.body.id])).rows[0]
          .last_used_at !== null,
      'the use is noted',
    );
    const list = await request(t.http)
      .get('/me/tokens')
      .auth(...user);
    expect(list.status).toBe(200);
    const { token: _shown, ...listed } = created.body;
    expect(list.body).toEqual({ tokens: [{ ...listed, lastUsedAt: expect.any(String) }] });
    expect(JSON.stringify(list.body)).not.toContain(token);

    expect(await events('auth.token.create', user[0])).toEqual([
      {
        user_name: user[0],
        detail: {
          token: created.body.id,
          name: 'ci export',
          hint: token.slice(-4),
          scopes: ['read', 'write'],
          expiresAt: created.body.expiresAt,
        },
      },
    ]);
  });

  it('refuses bad bodies with 400 naming the rule', async () => {
    const user = await freshUser(db, PREFIX);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', scopes: ['read'] }, 'give exactly one of expiresAt and expiresInDays: a token always expires'],
      [
        { name: 'x', scopes: ['read'], expiresInDays: 1, expiresAt: '2099-01-01T00:00:00Z' },
        'give exactly one of expiresAt and expiresInDays: a token always expires',
      ],
      [{ name: 'x', scopes: ['read'], expiresInDays: 91 }, 'a token expires within 90 days at most'],
      [{ name: 'x', scopes: ['read'], expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt must be in the future'],
      [
        { name: 'x', scopes: ['admin'], expiresInDays: 1 },
        `scopes: admin is only for administrators, and '${user[0]}' is none`,
      ],
      [{ name: 'x', scopes: ['root'], expiresInDays: 1 }, 'scopes must each be one of read, write, admin'],
      [{ name: 'x', scopes: [], expiresInDays: 1 }, 'scopes must name at least one of read, write, admin'],
      [{ name: ' ', scopes: ['read'], expiresInDays: 1 }, 'name must not be empty nor start or end with white space'],
    ];
    for (const [body, message] of cases) {
      const res = await request(t.http)
        .post('/me/tokens')
        .auth(...user)
        .send(body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
    }
    expect(
      (
        await db.query(
          'SELECT count(*)::int AS n FROM access_tokens t JOIN users u ON u.id = t.user_id WHERE u.name = $1',
          [user[0]],
        )
      ).rows[0].n,
    ).toBe(0);
  });

  it('gives an administrator an admin token; a token cannot create tokens', async () => {
    const admin = await freshUser(db, PREFIX, true);
    const { token } = await createToken(t.http, admin, { name: 'admin', scopes: ['admin'] });
    const res = await request(t.http)
      .post('/me/tokens')
      .set('Authorization', bearer(token))
      .send({ name: 'other', scopes: ['read'], expiresInDays: 1 });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      'a personal access token cannot create tokens: sign in with your password or the identity provider',
    );
  });

  it('answers a burst of first requests with a new token without using up the sign-in limit', async () => {
    // Each first use counts as an attempt until it is checked. The test holds access_tokens so the
    // first check waits; without one check shared by the burst, the requests past
    // AUTH_FAILURE_LIMIT (5) got 429 at once and marked the address.
    const user = await freshUser(db, PREFIX);
    const { token } = await createToken(t.http, user, { name: 'burst', scopes: ['read'] });
    // One listening server for the burst (supertest given a bare server listens and closes it
    // per request, dropping the connections of the others).
    const server = t.app.getHttpServer() as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = () =>
      request(base)
        .get('/numbers/version')
        .set('Authorization', bearer(token))
        .then((r) => r.status);
    const holder = await db.connect();
    let letGo = false;
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE access_tokens IN ACCESS EXCLUSIVE MODE');
      const first = get();
      await lockWaiters(db, 1, "the first request's check waits for the table the test holds", { pending: [first] });
      const burst = Array.from({ length: 12 }, get);
      // Refusals would come at once; otherwise the burst waits for the first check. A bound, no measure.
      await Promise.race([Promise.any(burst), new Promise((resolve) => setTimeout(resolve, 1000))]);
      await holder.query('COMMIT');
      letGo = true;
      const answers = await withinMs(Promise.all([first, ...burst]), LOCK_WAIT_MS, 'every request is answered');
      expect(answers).toEqual(Array.from({ length: 13 }, () => 200));
    } finally {
      holder.release(!letGo);
    }
    const after = await request(base).get('/numbers/version').set('Authorization', bearer(token));
    expect([after.status, after.body.version]).toEqual([200, expect.any(String)]);
  });

  it('refuses a second token of the same name in use (409), and takes the name again once revoked', async () => {
    const user = await freshUser(db, PREFIX);
    const first = await createToken(t.http, user, { name: 'same', scopes: ['read'] });
    const again = await request(t.http)
      .post('/me/tokens')
      .auth(...user)
      .send({ name: 'same', scopes: ['read'], expiresInDays: 1 });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`'${user[0]}' has a token named 'same' in use`);
    const revoked = await request(t.http)
      .delete(`/me/tokens/${first.id}`)
      .auth(...user);
    expect(revoked.status).toBe(204);
    await createToken(t.http, user, { name: 'same', scopes: ['read'] });
  });

  it('revokes a token: refused at once, audited, and a second revoke is 404', async () => {
    const user = await freshUser(db, PREFIX);
    const { id, token } = await createToken(t.http, user, { name: 'to revoke', scopes: ['read'] });
    expect((await version(token)).status).toBe(200);
    const res = await request(t.http)
      .delete(`/me/tokens/${id}`)
      .auth(...user);
    expect(res.status).toBe(204);
    expect(res.body).toEqual({});
    const after = await version(token);
    expect(after.status).toBe(401);
    expect(withoutRequestId(after.body)).toEqual({ statusCode: 401, error: 'Unauthorized', message: TOKEN_REFUSED });
    expect(after.headers['www-authenticate']).toBe('Basic realm="pdm", charset="UTF-8", Bearer realm="pdm"');
    const again = await request(t.http)
      .delete(`/me/tokens/${id}`)
      .auth(...user);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(`'${user[0]}' has no token ${id} in use`);
    expect(await events('auth.token.revoke', user[0])).toEqual([
      { user_name: user[0], detail: { token: id, name: 'to revoke', hint: token.slice(-4) } },
    ]);
    const list = await request(t.http)
      .get('/me/tokens')
      .auth(...user);
    expect(list.body).toEqual({ tokens: [] });
  });

  it("lets an administrator list, create and revoke another user's tokens; others get 403", async () => {
    const admin = await freshUser(db, PREFIX, true);
    const user = await freshUser(db, PREFIX);
    const made = await request(t.http)
      .post(`/admin/users/${user[0]}/tokens`)
      .auth(...admin)
      .send({ name: 'by admin', scopes: ['write'], expiresInDays: 7 });
    expect(made.status).toBe(201);
    expect(made.body.scopes).toEqual(['read', 'write']);
    const usedBy = await request(t.http).get('/me/tokens').set('Authorization', bearer(made.body.token));
    expect(usedBy.status).toBe(200);
    expect(usedBy.body.tokens.map((x: { name: string }) => x.name)).toEqual(['by admin']);

    const adminScope = await request(t.http)
      .post(`/admin/users/${user[0]}/tokens`)
      .auth(...admin)
      .send({ name: 'too much', scopes: ['admin'], expiresInDays: 7 });
    expect(adminScope.status).toBe(400);

    const listed = await request(t.http)
      .get(`/admin/users/${user[0]}/tokens`)
      .auth(...admin);
    expect(listed.status).toBe(200);
    expect(listed.body.tokens).toHaveLength(1);

    const byUser = await request(t.http)
      .get(`/admin/users/${admin[0]}/tokens`)
      .auth(...user);
    expect(byUser.status).toBe(403);
    expect(byUser.body.message).toBe('this administration operation needs an administrator');

    const revoked = await request(t.http)
      .delete(`/admin/users/${user[0]}/tokens/${made.body.id}`)
      .auth(...admin);
    expect(revoked.status).toBe(204);
    expect((await request(t.http).get('/me/tokens').set('Authorization', bearer(made.body.token))).status).toBe(401);

    const missing = await request(t.http)
      .get('/admin/users/no-such-user-here/tokens')
      .auth(...admin);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("no user named 'no-such-user-here'");
  });

  it('refuses a token after its expiry, and audits the use', async () => {
    const user = await freshUser(db, PREFIX);
    const { id, token } = await createToken(t.http, user, { name: 'short', scopes: ['read'], expiresInDays: 1 });
    expect((await version(token)).status).toBe(200);
    clock.advance(DAY_MS + 1000);
    const res = await version(token);
    expect(res.status).toBe(401);
    expect(withoutRequestId(res.body)).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'the personal access token has expired: create a new one',
    });
    await pollUntil(async () => (await events('auth.token.expired', user[0])).length > 0, 'the use is audited');
    expect(await events('auth.token.expired', user[0])).toEqual([{ user_name: user[0], detail: { token: id } }]);
    // Expired tokens stay listed until revoked, and do not count against the limit.
    const list = await request(t.http)
      .get('/me/tokens')
      .auth(...user);
    expect(list.body.tokens.map((x: { name: string }) => x.name)).toEqual(['short']);
  });

  it("refuses a disabled user's token at once", async () => {
    const admin = await freshUser(db, PREFIX, true);
    const user = await freshUser(db, PREFIX);
    const { token } = await createToken(t.http, user, { name: 'soon disabled', scopes: ['write'] });
    expect((await version(token)).status).toBe(200);
    const disabled = await request(t.http)
      .patch(`/admin/users/${user[0]}`)
      .auth(...admin)
      .send({ disabled: true });
    expect(disabled.status).toBe(200);
    const res = await version(token);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(TOKEN_REFUSED);
  });

  it('notes the last use, at most once a minute', async () => {
    const user = await freshUser(db, PREFIX);
    const { id, token } = await createToken(t.http, user, { name: 'used', scopes: ['read'] });
    const touch = jest.spyOn(t.app.get(AccessTokensRepository), 'touch');
    try {
      for (let i = 0; i < 3; i++) expect((await version(token)).status).toBe(200);
      expect(touch.mock.calls.map((c) => c[0])).toEqual([id]);
    } finally {
      touch.mockRestore();
    }
    await pollUntil(
      async () =>
        (await db.query('SELECT last_used_at FROM access_tokens WHERE id = $1', [id])).rows[0].last_used_at !== null,
      'last_used_at is written',
    );
  });

  it('refuses other bearer credentials with their own 401', async () => {
    const jwt = await request(t.http).get('/numbers/version').set('Authorization', 'Bearer eyJhbGciOi.x.y');
    expect(jwt.status).toBe(401);
    expect(withoutRequestId(jwt.body)).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message:
        'no identity provider is configured here (OIDC_ISSUER): only personal access tokens are accepted as Bearer credentials',
    });
    const opaque = await request(t.http).get('/numbers/version').set('Authorization', 'Bearer opaque-credential');
    expect(opaque.status).toBe(401);
    expect(withoutRequestId(opaque.body)).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message:
        'a Bearer credential must be a personal access token (pdm_pat_…) or a JWT of a configured identity provider',
    });
  });

  it('holds the limit of tokens in use under parallel requests', async () => {
    const user = await freshUser(db, PREFIX);
    await createToken(t.http, user, { name: 'one', scopes: ['read'] });
    await createToken(t.http, user, { name: 'two', scopes: ['read'] });
    const make = (name: string) => () =>
      request(t.http)
        .post('/me/tokens')
        .auth(...user)
        .send({ name, scopes: ['read'], expiresInDays: 1 })
        .then((r) => ({ status: r.status, message: r.body.message as string | undefined }));
    // The first request locks the user's row and counts, then waits to insert; the second waits
    // for the user's row and counts only once the first has committed.
    const answers = await interleave(db, 'LOCK TABLE access_tokens IN SHARE MODE', make('three'), make('four'));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)?.message).toBe(
      `'${user[0]}' has 3 tokens in use, the most allowed: revoke one first`,
    );
  });
});

describe('guessing personal access tokens', () => {
  let t: TestApp;
  let db: pg.Pool;
  beforeAll(async () => {
    db = testPool();
    await forgetSignInFailures(db);
    t = await createTestApp({ AUTH_FAILURE_LIMIT: '3' });
  });
  afterAll(async () => {
    await t.close();
    await forgetSignInFailures(db);
    await dropUsers(db, `${PREFIX}g`);
    await db.end();
  });

  it('is throttled per address with 429 and Retry-After, also for a valid token from there', async () => {
    const user = await freshUser(db, `${PREFIX}g`);
    const { token } = await createToken(t.http, user, { name: 'valid', scopes: ['read'] });
    expect((await request(t.http).get('/files/version').set('Authorization', bearer(token))).status).toBe(200);
    const guesses = [
      'pdm_pat_' + 'a'.repeat(49),
      token.slice(0, -7) + (token.at(-7) === 'a' ? 'b' : 'a') + token.slice(-6),
      'pdm_pat_x',
    ];
    for (const guess of guesses) {
      const res = await request(t.http).get('/files/version').set('Authorization', bearer(guess));
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 401, message: TOKEN_REFUSED });
    }
    for (const attempt of ['pdm_pat_' + 'b'.repeat(49), token]) {
      const res = await request(t.http).get('/files/version').set('Authorization', bearer(attempt));
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
      expect(res.body.message).toMatch(/^too many failed sign-ins; retry after \d+ s$/);
    }
    // Passwords of users are counted apart: alice still signs in from this address.
    const other = await request(t.http)
      .get('/files/version')
      .auth(...USERS.alice);
    expect(other.status).toBe(200);
  });
});
