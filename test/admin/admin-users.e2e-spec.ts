import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';

describe('/admin/users', () => {
  let pool: pg.Pool;

  const t = useTestApp();
  beforeAll(async () => {
    pool = testPool();
    await pool.query("DELETE FROM users WHERE name LIKE 'adm-u-%'");
  });

  afterAll(async () => {
    await pool.end();
  });

  const asAdmin = {
    get: (path: string) =>
      request(t.http)
        .get(path)
        .auth(...USERS.admin),
    post: (path: string, body: object) =>
      request(t.http)
        .post(path)
        .auth(...USERS.admin)
        .send(body),
    patch: (path: string, body: object) =>
      request(t.http)
        .patch(path)
        .auth(...USERS.admin)
        .send(body),
    delete: (path: string) =>
      request(t.http)
        .delete(path)
        .auth(...USERS.admin),
  };

  async function row(name: string) {
    const { rows } = await pool.query(
      'SELECT name, admin, disabled, full_name, email, password_hash FROM users WHERE name = $1',
      [name],
    );
    return rows[0] as
      { admin: boolean; disabled: boolean; full_name: string; email: string; password_hash: string } | undefined;
  }

  it('creates a user who can sign in at once, with a scrypt hash stored', async () => {
    const res = await asAdmin.post('/admin/users', {
      name: 'adm-u-new',
      password: 'new-user-pw',
      fullName: 'New User',
      email: 'new@example.com',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      oid: expect.stringMatching(/^OR:wt\.org\.WTUser:\d+$/),
      name: 'adm-u-new',
      fullName: 'New User',
      email: 'new@example.com',
      admin: false,
      disabled: false,
      createdAt: expect.any(String),
    });
    expect((await row('adm-u-new'))?.password_hash).toMatch(/^scrypt\$/);
    const signIn = await request(t.http).get('/numbers/version').auth('adm-u-new', 'new-user-pw');
    expect(signIn.status).toBe(200);
    const again = await asAdmin.post('/admin/users', { name: 'adm-u-new', password: 'another-pw' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("name: a user named 'adm-u-new' already exists");
  });

  it('lists users paged, ordered by name', async () => {
    const res = await asAdmin.get('/admin/users?page=1&limit=2');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 2, page: 1, limit: 2, total: expect.any(Number) });
    expect(res.body.total).toBeGreaterThanOrEqual(4);
    const names = res.body.items.map((u: { name: string }) => u.name);
    expect(names).toEqual([...names].sort());
    expect(res.body.items[0]).not.toHaveProperty('passwordHash');
    const past = await asAdmin.get('/admin/users?page=100000&limit=500');
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ count: 0, items: [] });
  });

  it.each([
    ['/admin/users?limit=501', 'limit must be at most 500'],
    ['/admin/users?limit=0', 'limit must be at least 1'],
    ['/admin/users?page=x', 'page must be a whole number'],
  ])('refuses the page %s naming the field', async (path, message) => {
    const res = await asAdmin.get(path);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
  });

  it.each([
    [{ password: 'long-enough-pw' }, 'name must be'],
    [{ name: 'a:b', password: 'long-enough-pw' }, 'name must be 1 to 64 letters'],
    [{ name: 'x'.repeat(65), password: 'long-enough-pw' }, 'name must be 1 to 64 letters'],
    [{ name: ' lead', password: 'long-enough-pw' }, 'name must be 1 to 64 letters'],
    [{ name: 'adm-u-short' }, 'password must be a string'],
    [{ name: 'adm-u-short', password: 'short' }, 'password must be at least 8 characters'],
    [{ name: 'adm-u-short', password: 'x'.repeat(201) }, 'password must be at most 200 characters'],
    [{ name: 'adm-u-short', password: 'nul\u0000password' }, 'password must not contain NUL characters'],
    [{ name: 'adm-u-short', password: 'long-enough-pw', email: 'nope' }, 'email must be an e-mail address'],
    [{ name: 'adm-u-short', password: 'long-enough-pw', admin: 'yes' }, 'admin must be true or false'],
    [{ name: 'adm-u-short', password: 'long-enough-pw', admin: null }, 'admin must be true or false'],
    [{ name: 'adm-u-short', password: 'long-enough-pw', role: 'x' }, 'property role should not exist'],
  ])('refuses the body %j naming the field, storing nothing', async (body, message) => {
    const res = await asAdmin.post('/admin/users', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(await row('adm-u-short')).toBeUndefined();
  });

  it('changes name fields, e-mail, password and flags; clears with null', async () => {
    await asAdmin.post('/admin/users', {
      name: 'adm-u-edit',
      password: 'edit-pw-one',
      fullName: 'Edit',
      email: 'e@example.com',
    });
    const res = await asAdmin.patch('/admin/users/adm-u-edit', {
      fullName: 'Edited',
      email: null,
      password: 'edit-pw-two',
      admin: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'adm-u-edit',
      fullName: 'Edited',
      email: null,
      admin: true,
      disabled: false,
    });
    expect((await request(t.http).get('/admin/users?limit=1').auth('adm-u-edit', 'edit-pw-two')).status).toBe(200);
    expect((await request(t.http).get('/numbers/version').auth('adm-u-edit', 'edit-pw-one')).status).toBe(401);
    const read = await asAdmin.get('/admin/users/adm-u-edit');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('refuses an empty or bad change naming the field, changing nothing', async () => {
    await asAdmin.post('/admin/users', { name: 'adm-u-bad', password: 'bad-pw-one' });
    const before = await row('adm-u-bad');
    for (const [body, message] of [
      [{}, 'give at least one of password, fullName, email, admin, disabled'],
      [{ password: null }, 'password must be a string'],
      [{ disabled: 'true' }, 'disabled must be true or false'],
      [{ fullName: 'x'.repeat(201) }, 'fullName must be at most 200 characters'],
      [{ name: 'renamed' }, 'property name should not exist'],
    ] as const) {
      const res = await asAdmin.patch('/admin/users/adm-u-bad', body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({
        body,
        status: 400,
        message: expect.stringContaining(message),
      });
    }
    expect(await row('adm-u-bad')).toEqual(before);
    const missing = await asAdmin.patch('/admin/users/adm-u-nobody', { disabled: true });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("no user named 'adm-u-nobody'");
  });

  it('never leaves the service without an enabled administrator', async () => {
    const { rows } = await pool.query<{ name: string }>('SELECT name FROM users WHERE admin AND NOT disabled');
    // Only the demo admin is left an enabled administrator for this check.
    await pool.query("UPDATE users SET admin = false WHERE admin AND name <> 'admin'");
    try {
      for (const body of [{ admin: false }, { disabled: true }]) {
        const res = await asAdmin.patch('/admin/users/admin', body);
        expect(res.status).toBe(409);
        expect(res.body.message).toContain("'admin' is the last enabled administrator");
      }
      const del = await asAdmin.delete('/admin/users/admin');
      expect(del.status).toBe(409);
      expect((await row('admin'))?.admin).toBe(true);
    } finally {
      await pool.query('UPDATE users SET admin = true WHERE name = ANY($1)', [rows.map((r) => r.name)]);
    }
  });

  it('deletes a user who made nothing; refuses one who did and says to disable them', async () => {
    await asAdmin.post('/admin/users', { name: 'adm-u-gone', password: 'gone-pw-one' });
    const { rows } = await pool.query<{ id: number }>("SELECT c.id FROM containers c WHERE c.name = 'Drive Unit'");
    await pool.query(
      "INSERT INTO memberships (container_id, user_id, role) SELECT $1, id, 'reader' FROM users WHERE name = 'adm-u-gone'",
      [rows[0].id],
    );
    const del = await asAdmin.delete('/admin/users/adm-u-gone');
    expect(del.status).toBe(204);
    expect(await row('adm-u-gone')).toBeUndefined();
    expect((await asAdmin.delete('/admin/users/adm-u-gone')).status).toBe(404);

    const alice = await asAdmin.delete('/admin/users/alice');
    expect(alice.status).toBe(409);
    expect(alice.body.message).toMatch(
      /^user 'alice' cannot be deleted while \d+ iteration\(s\) they created or changed, (\d+ object\(s\) they created or changed, )?\d+ workspace\(s\) they own name them; disable the user instead/,
    );
    expect(await row('alice')).toBeDefined();
  });

  it.each([
    ['alice', USERS.alice],
    ['bob', USERS.bob],
    ['carol (a manager)', USERS.carol],
  ])('answers %s 403 on every operation, changing nothing', async (_, creds) => {
    const calls = [
      () => request(t.http).get('/admin/users').auth(creds[0], creds[1]),
      () => request(t.http).get('/admin/users/bob').auth(creds[0], creds[1]),
      () =>
        request(t.http)
          .post('/admin/users')
          .auth(creds[0], creds[1])
          .send({ name: 'adm-u-sneak', password: 'sneaky-pw' }),
      () => request(t.http).patch('/admin/users/bob').auth(creds[0], creds[1]).send({ admin: true }),
      () => request(t.http).delete('/admin/users/bob').auth(creds[0], creds[1]),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('this administration operation needs an administrator');
    }
    expect(await row('adm-u-sneak')).toBeUndefined();
    expect((await row('bob'))?.admin).toBe(false);
  });

  it('answers 401 without credentials, before reading the body', async () => {
    const res = await request(t.http).post('/admin/users').send({ name: 'adm-u-anon', password: 'anon-pw-1' });
    expect(res.status).toBe(401);
    expect(await row('adm-u-anon')).toBeUndefined();
    expect((await request(t.http).get('/admin/users')).status).toBe(401);
    expect((await request(t.http).delete('/admin/users/bob')).status).toBe(401);
  });
});
