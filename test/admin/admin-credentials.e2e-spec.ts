import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';

/**
 * Two instances of the service on one database, as behind a load balancer. Both cache successful
 * password checks (AUTH_CACHE_TTL_MS a minute); a change made through one must hold on the other
 * at its next request, not a minute later. With AUTH_NOTICES=false each confirms its cached checks
 * per request, which is what makes "the next request" exact; by default they learn it from the
 * database's notice a moment later (test/auth/auth-notices.e2e-spec.ts).
 */
describe('changes of users take effect at once on every instance (AUTH_NOTICES=false)', () => {
  let pool: pg.Pool;
  const name = 'cred-sync-user';

  const one = useTestApp({ AUTH_CACHE_TTL_MS: '60000', AUTH_NOTICES: 'false' });
  const two = useTestApp({ AUTH_CACHE_TTL_MS: '60000', AUTH_NOTICES: 'false' });
  beforeAll(async () => {
    pool = testPool();
  });

  afterAll(async () => {
    await pool.end();
  });

  async function createUser(password: string, admin = false): Promise<void> {
    await pool.query('DELETE FROM users WHERE name = $1', [name]);
    const res = await request(one.http)
      .post('/admin/users')
      .auth(...USERS.admin)
      .send({ name, password, admin });
    expect(res.status).toBe(201);
  }

  /** Signs in on both instances, so both hold the check in their cache. */
  async function signInOnBoth(password: string): Promise<void> {
    for (const t of [one, two]) {
      const res = await request(t.http).get('/numbers/version').auth(name, password);
      expect(res.status).toBe(200);
    }
  }

  it('a changed password: the other instance refuses the old one on the next request', async () => {
    await createUser('first-password');
    await signInOnBoth('first-password');
    const change = await request(one.http)
      .patch(`/admin/users/${name}`)
      .auth(...USERS.admin)
      .send({ password: 'second-password' });
    expect(change.status).toBe(200);
    for (const t of [two, one]) {
      const old = await request(t.http).get('/numbers/version').auth(name, 'first-password');
      expect(old.status).toBe(401);
      expect(old.body.message).toBe('valid credentials are required (HTTP Basic, or a Bearer token)');
      const fresh = await request(t.http).get('/numbers/version').auth(name, 'second-password');
      expect(fresh.status).toBe(200);
    }
  });

  it('a disabled user is refused on the other instance on the next request', async () => {
    await createUser('some-password');
    await signInOnBoth('some-password');
    const change = await request(one.http)
      .patch(`/admin/users/${name}`)
      .auth(...USERS.admin)
      .send({ disabled: true });
    expect(change.status).toBe(200);
    expect(change.body.disabled).toBe(true);
    const res = await request(two.http).get('/numbers/version').auth(name, 'some-password');
    expect(res.status).toBe(401);
  });

  it('a removed admin flag holds on the other instance on the next request', async () => {
    await createUser('admin-password', true);
    await signInOnBoth('admin-password');
    const before = await request(two.http).get('/admin/users?limit=1').auth(name, 'admin-password');
    expect(before.status).toBe(200);
    const change = await request(one.http)
      .patch(`/admin/users/${name}`)
      .auth(...USERS.admin)
      .send({ admin: false });
    expect(change.status).toBe(200);
    const after = await request(two.http).get('/admin/users?limit=1').auth(name, 'admin-password');
    expect(after.status).toBe(403);
  });

  it('a deleted user is refused on the other instance on the next request', async () => {
    await createUser('gone-password');
    await signInOnBoth('gone-password');
    const del = await request(one.http)
      .delete(`/admin/users/${name}`)
      .auth(...USERS.admin);
    expect(del.status).toBe(204);
    const res = await request(two.http).get('/numbers/version').auth(name, 'gone-password');
    expect(res.status).toBe(401);
  });

  it('a change made by plain SQL (or an import) holds at the next request too', async () => {
    await createUser('sql-password');
    await signInOnBoth('sql-password');
    await pool.query('UPDATE users SET disabled = true WHERE name = $1', [name]);
    for (const t of [one, two]) {
      const res = await request(t.http).get('/numbers/version').auth(name, 'sql-password');
      expect(res.status).toBe(401);
    }
  });
});
