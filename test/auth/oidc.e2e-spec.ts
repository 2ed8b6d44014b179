import { jest } from '@jest/globals';
import { createHmac, randomBytes } from 'node:crypto';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import type pg from 'pg';
import request from 'supertest';
import { GroupsService } from '../../src/groups/groups.service.js';
import { hashPassword } from '../../src/auth/password.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { TEST_AUDIENCE, TestIssuer } from '../helpers/oidc-issuer.js';
import { forgetSignInFailures } from '../helpers/sign-in-failures.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { interleave } from '../helpers/interleave.js';
import { embeddedTestRun, testPool } from '../helpers/test-database.js';

const suffix = randomBytes(3).toString('hex');
const NEWCOMER = `newcomer-${suffix}`;
const STRANGER = `stranger-${suffix}`;
const DISABLED = `gone-${suffix}`;
const LEAVER = `leaver-${suffix}`;
const TWIN = `twin-${suffix}`;
const QUITTER = `quitter-${suffix}`;

/** The body of an error answer without its per-request id. */
function envelope(res: request.Response): Record<string, unknown> {
  const { requestId, ...rest } = res.body as Record<string, unknown>;
  expect(typeof requestId).toBe('string');
  return rest;
}

const bearer = (token: string) => `Bearer ${token}`;
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Expects the 401 of a refused bearer token, with its message in the body and the challenge. */
function expectRefused(res: request.Response, message: string): void {
  expect(res.status).toBe(401);
  expect(envelope(res)).toEqual({ statusCode: 401, error: 'Unauthorized', message });
  expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", error_description="/);
}

describe('OpenID Connect bearer tokens', () => {
  let a: TestIssuer; // creates no users, lists groups
  let b: TestIssuer; // creates users
  let other: TestIssuer; // not configured
  let t: TestApp;
  let db: pg.Pool;
  const clock = new FakeClock();

  beforeAll(async () => {
    db = testPool();
    await db.query(
      `INSERT INTO users (name, password_hash, disabled) VALUES ($1, $3, true), ($2, $3, false), ($4, $3, false)
       ON CONFLICT (name) DO NOTHING`,
      [DISABLED, LEAVER, await hashPassword('unused-pw'), QUITTER],
    );
    await forgetSignInFailures(db);
    a = await TestIssuer.start({
      alice: { preferred_username: 'alice', groups: ['engineering', 'design'] },
      'alice-moved': { preferred_username: 'alice', groups: ['engineering'] },
      admin: { preferred_username: 'admin' },
      stranger: { preferred_username: STRANGER },
      disabled: { preferred_username: DISABLED },
      leaver: { preferred_username: LEAVER },
      quitter: { preferred_username: QUITTER },
      nameless: {},
    });
    b = await TestIssuer.start({
      newcomer: { preferred_username: NEWCOMER, name: 'New Comer', email: 'new.comer@example.com' },
      bob: { preferred_username: 'bob' },
      twin: { preferred_username: TWIN },
    });
    other = await TestIssuer.start({ alice: { preferred_username: 'alice' } });
    t = await createTestApp(
      {
        OIDC_ISSUERS: JSON.stringify([
          { issuer: a.issuer, audience: TEST_AUDIENCE, groupsClaim: 'groups' },
          { issuer: b.issuer, audience: TEST_AUDIENCE, createUsers: true },
        ]),
        // Every unknown key id fetches the keys again: the test rotates them within seconds.
        OIDC_JWKS_COOLDOWN_MS: '0',
        AUTH_FAILURE_LIMIT: '1000',
      },
      { clock },
    );
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([a?.stop(), b?.stop(), other?.stop()]);
    await forgetSignInFailures(db);
    await db.end();
  });

  const get = (path: string, token: string) => request(t.http).get(path).set('Authorization', bearer(token));

  it('signs in the user a valid token names, and hands on its groups once', async () => {
    const sync = jest.spyOn(t.app.get(GroupsService), 'syncClaimGroups');
    try {
      const token = await a.token('alice');
      const res = await get('/admin/users', token);
      // alice is no administrator: the answer tells it was alice who asked.
      expect(res.status).toBe(403);
      expect(envelope(res)).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        message: 'this administration operation needs an administrator',
      });
      const again = await get('/numbers/version', token);
      expect(again.status).toBe(200);
      expect(again.body).toHaveProperty('build');
      const aliceId = (await db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'alice'`)).rows[0].id;
      expect(sync.mock.calls).toEqual([[aliceId, a.issuer, ['design', 'engineering']]]);

      // A new token with the same groups writes nothing.
      expect((await get('/numbers/version', await a.token('alice'))).status).toBe(200);
      expect(sync).toHaveBeenCalledTimes(1);
      // Other groups are handed on.
      expect((await get('/numbers/version', await a.token('alice-moved'))).status).toBe(200);
      expect(sync.mock.calls[1]).toEqual([aliceId, a.issuer, ['engineering']]);

      const admin = await get(`/admin/users/alice`, await a.token('admin'));
      expect(admin.status).toBe(200);
      expect(admin.body).toMatchObject({ name: 'alice', admin: false, disabled: false });
    } finally {
      sync.mockRestore();
    }
  });

  it('puts the user in the groups the claim names, and out of those a later token leaves out', async () => {
    await db.query(`DELETE FROM groups WHERE name IN ('engineering', 'design')`);
    await db.query(`INSERT INTO groups (name) VALUES ('engineering'), ('design')`);
    try {
      const me = await get('/principals/me', await a.token('alice'));
      expect([me.status, me.body.name, me.body.via, me.body.groups.map((g: { name: string }) => g.name)]).toEqual([
        200,
        'alice',
        'oidc',
        ['design', 'engineering'],
      ]);
      const moved = await get('/principals/me', await a.token('alice-moved'));
      expect([moved.status, moved.body.groups.map((g: { name: string }) => g.name)]).toEqual([200, ['engineering']]);
      const rows = await db.query(
        `SELECT g.name, gu.source FROM group_users gu JOIN groups g ON g.id = gu.group_id
         JOIN users u ON u.id = gu.user_id WHERE u.name = 'alice' ORDER BY 1`,
      );
      expect(rows.rows).toEqual([{ name: 'engineering', source: a.issuer }]);
    } finally {
      await db.query(`DELETE FROM groups WHERE name IN ('engineering', 'design')`);
    }
  });

  it('refuses a token meant for another service', async () => {
    const res = await get('/numbers/version', await a.token('alice', 'https://other-service.test'));
    expectRefused(res, `the token is not meant for this service: its audience is not "${TEST_AUDIENCE}"`);
  });

  it('refuses a token of an issuer that is not configured', async () => {
    const res = await get('/numbers/version', await other.token('alice'));
    expectRefused(res, `the token's issuer "${other.issuer}" is not one this service accepts`);
  });

  it('refuses alg none and an HMAC signed with the public key, whatever they claim', async () => {
    const claims = decodeJwt(await a.token('alice'));
    const unsigned = `${b64url({ alg: 'none', typ: 'at+jwt' })}.${b64url(claims)}.`;
    expectRefused(
      await get('/numbers/version', unsigned),
      'the token\'s signature algorithm "none" is not accepted: only asymmetric signatures (RS*, PS*, ES*, EdDSA)',
    );

    const input = `${b64url({ alg: 'HS256', typ: 'at+jwt', kid: a.key.kid })}.${b64url(claims)}`;
    const mac = createHmac('sha256', a.key.publicPem).update(input).digest('base64url');
    expectRefused(
      await get('/numbers/version', `${input}.${mac}`),
      'the token\'s signature algorithm "HS256" is not accepted: only asymmetric signatures (RS*, PS*, ES*, EdDSA)',
    );
  });

  it('refuses a token whose signature does not match its claims', async () => {
    const [header, , signature] = (await a.token('alice')).split('.');
    const forged = `${header}.${b64url({ ...decodeJwt(await a.token('admin')) })}.${signature}`;
    expectRefused(await get('/numbers/version', forged), "the token's signature is not valid");
  });

  it('refuses a key id the issuer does not have, and picks up the keys of a restarted issuer', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const stranger = await new SignJWT({ preferred_username: 'alice' })
      .setProtectedHeader({ alg: 'RS256', kid: 'not-a-key-of-a' })
      .setIssuer(a.issuer)
      .setAudience(TEST_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    expectRefused(
      await get('/numbers/version', stranger),
      `no key of ${a.issuer} has the token's key id "not-a-key-of-a"`,
    );

    const oldKid = a.key.kid;
    await a.rotate();
    expect(a.key.kid).not.toBe(oldKid);
    const res = await get('/numbers/version', await a.token('alice'));
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('build');
  });

  it('refuses a user not known here when the issuer creates none', async () => {
    const res = await get('/numbers/version', await a.token('stranger'));
    expectRefused(
      res,
      `user ${STRANGER} from ${a.issuer} is not known here; an administrator must create them or the issuer must allow creating users`,
    );
    const rows = await db.query('SELECT 1 FROM users WHERE name = $1', [STRANGER]);
    expect(rows.rowCount).toBe(0);
  });

  it('creates a user not known here from the claims when the issuer may, who has no password', async () => {
    const res = await get('/numbers/version', await b.token('newcomer'));
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('build');

    const user = await get(`/admin/users/${NEWCOMER}`, await a.token('admin'));
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({
      name: NEWCOMER,
      fullName: 'New Comer',
      email: 'new.comer@example.com',
      admin: false,
      disabled: false,
    });
    const events = await db.query<{ action: string; detail: unknown }>(
      `SELECT action, detail FROM audit_events WHERE object_number = $1`,
      [NEWCOMER],
    );
    expect(events.rows).toEqual([
      {
        action: 'auth.user.create',
        detail: { issuer: b.issuer, after: { name: NEWCOMER, fullName: 'New Comer', email: 'new.comer@example.com' } },
      },
    ]);
    // The stored hash is no password's.
    const basic = await request(t.http).get('/numbers/version').auth(NEWCOMER, '!external');
    expect(basic.status).toBe(401);
    expect(envelope(basic)).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'valid credentials are required (HTTP Basic, or a Bearer token)',
    });
  });

  // The embedded database serves one connection at a time: no two requests can wait on a lock there.
  (embeddedTestRun() ? it.skip : it)(
    'creates a user once when two first requests of theirs come at the same time',
    async () => {
      const [one, two] = [await b.token('twin'), await b.token('twin')];
      // Both find no user and then wait to insert one: the second insert meets the first's row.
      const [first, second] = await interleave(
        db,
        'LOCK TABLE users IN SHARE MODE',
        () => get('/numbers/version', one),
        () => get('/numbers/version', two),
      );
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body).toEqual(first.body);
      const rows = await db.query('SELECT 1 FROM users WHERE name = $1', [TWIN]);
      expect(rows.rowCount).toBe(1);
    },
  );

  it('accepts the tokens of every configured issuer for known users', async () => {
    const res = await get('/numbers/version', await b.token('bob'));
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('build');
  });

  it('refuses a disabled user, and a user disabled while their token is remembered', async () => {
    expectRefused(await get('/numbers/version', await a.token('disabled')), `user ${DISABLED} is disabled here`);

    const token = await a.token('leaver');
    expect((await get('/numbers/version', token)).status).toBe(200);
    await db.query('UPDATE users SET disabled = true WHERE name = $1', [LEAVER]);
    // Either the notice has dropped the remembered token or the row is read again.
    const deadline = Date.now() + 5_000;
    let res = await get('/numbers/version', token);
    while (res.status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      res = await get('/numbers/version', token);
    }
    expectRefused(res, `user ${LEAVER} is disabled here`);
  });

  it('refuses the remembered token of a user at once once an administrator of this instance disabled them', async () => {
    const token = await a.token('quitter');
    expect((await get('/numbers/version', token)).status).toBe(200);
    const patch = await request(t.http)
      .patch(`/admin/users/${QUITTER}`)
      .auth(...USERS.admin)
      .send({ disabled: true });
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({ name: QUITTER, disabled: true });
    expectRefused(await get('/numbers/version', token), `user ${QUITTER} is disabled here`);
  });

  it('refuses a token without the user claim', async () => {
    expectRefused(
      await get('/numbers/version', await a.token('nameless')),
      'the token has no "preferred_username" claim naming the user',
    );
  });

  it('still answers Basic credentials', async () => {
    const res = await request(t.http)
      .get('/numbers/version')
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('build');
  });

  // Last: the clock moved forward stays there for this application.
  it('refuses an expired token, also one it accepted before', async () => {
    const token = await a.token('alice');
    expect((await get('/numbers/version', token)).status).toBe(200);
    const { exp } = decodeJwt(token);
    clock.advance((exp! + 61) * 1000 - Date.now());
    expectRefused(await get('/numbers/version', token), 'the token has expired');
  });
});

describe('OpenID Connect, failures and configuration', () => {
  let issuer: TestIssuer;
  let db: pg.Pool;

  beforeAll(async () => {
    db = testPool();
    await forgetSignInFailures(db);
    issuer = await TestIssuer.start({ alice: { preferred_username: 'alice' } });
  });
  afterAll(async () => {
    await issuer?.stop();
    await forgetSignInFailures(db);
    await db.end();
  });

  it('refuses bearer JWTs when no issuer is configured, and bearer credentials of no known kind', async () => {
    const t = await createTestApp({});
    try {
      const res = await request(t.http)
        .get('/numbers/version')
        .set('Authorization', bearer(await issuer.token('alice')));
      expectRefused(
        res,
        'no identity provider is configured here (OIDC_ISSUER): only personal access tokens are accepted as Bearer credentials',
      );
      const other = await request(t.http).get('/numbers/version').set('Authorization', 'Bearer opaque');
      expect(other.status).toBe(401);
      expect(envelope(other)).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message:
          'a Bearer credential must be a personal access token (pdm_pat_…) or a JWT of a configured identity provider',
      });
      expect(other.headers['www-authenticate']).toBe('Basic realm="pdm", charset="UTF-8", Bearer realm="pdm"');
    } finally {
      await t.close();
    }
  });

  it('counts refused tokens as failed sign-ins of the address: past the limit they get 429', async () => {
    const t = await createTestApp({
      OIDC_ISSUER: issuer.issuer,
      OIDC_AUDIENCE: TEST_AUDIENCE,
      AUTH_FAILURE_LIMIT: '2',
    });
    try {
      const wrong = await issuer.token('alice', 'https://other-service.test');
      const call = () => request(t.http).get('/numbers/version').set('Authorization', bearer(wrong));
      expect((await call()).status).toBe(401);
      expect((await call()).status).toBe(401);
      const blocked = await call();
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(envelope(blocked)).toEqual({
        statusCode: 429,
        error: 'Too Many Requests',
        message: expect.stringMatching(/^too many failed sign-ins; retry after \d+ s$/),
      });
    } finally {
      await t.close();
      await forgetSignInFailures(db);
    }
  });

  it('answers 503 while the issuer cannot be reached', async () => {
    const down = await TestIssuer.start({ alice: { preferred_username: 'alice' } });
    const token = await down.token('alice');
    await down.stop();
    const t = await createTestApp({ OIDC_ISSUER: down.issuer, OIDC_AUDIENCE: TEST_AUDIENCE });
    try {
      const res = await request(t.http).get('/numbers/version').set('Authorization', bearer(token));
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(envelope(res)).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: expect.stringMatching(
          new RegExp(`^the identity provider ${down.issuer} cannot be used now: .* did not answer`),
        ),
      });
    } finally {
      await t.close();
    }
  });
});
