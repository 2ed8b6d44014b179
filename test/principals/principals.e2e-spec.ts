import request from 'supertest';
import type pg from 'pg';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { makeUsers } from '../groups/groups-fixtures.js';
import { createContainer } from '../numbers/numbers-fixtures.js';

const ADMIN = ['admin', 'admin'] as const;
const P = 'prin-';

/**
 * The principal service: users and groups to pick from (any signed-in user, names only), and who
 * the caller is with their groups (also nested) and containers (own and groups' roles).
 */
describe('principal service', () => {
  let pool: pg.Pool;
  let users: Record<string, [string, string]>;
  let inner: number;
  let outer: number;
  const t = useTestApp();

  const as = (u: readonly [string, string]) => ({
    get: (path: string) => request(t.http).get(path).auth(u[0], u[1]),
  });

  beforeAll(async () => {
    pool = testPool();
    await pool.query('DELETE FROM groups WHERE name LIKE $1', [`${P}%`]);
    await pool.query('DELETE FROM containers WHERE name LIKE $1', [`${P}%`]);
    users = await makeUsers(pool, [`${P}ann`, `${P}ben`, `${P}zed`]);
    await pool.query(`UPDATE users SET full_name = 'Annie Prinz', email = 'ann@example.com' WHERE name = $1`, [
      `${P}ann`,
    ]);
    const g = await pool.query<{ id: number }>(
      `INSERT INTO groups (name, description) VALUES ($1, 'the inner one'), ($2, NULL) RETURNING id`,
      [`${P}inner`, `${P}outer`],
    );
    [inner, outer] = g.rows.map((r) => r.id);
    await pool.query('INSERT INTO group_groups (group_id, member_group_id) VALUES ($1, $2)', [outer, inner]);
    await pool.query(`INSERT INTO group_users (group_id, user_id) SELECT $1, id FROM users WHERE name = $2`, [
      inner,
      `${P}ann`,
    ]);
    const own = await createContainer(pool, { name: `${P}own`, members: { [`${P}ann`]: 'reader' } });
    const both = await createContainer(pool, { name: `${P}both`, members: { [`${P}ann`]: 'reader' } });
    await createContainer(pool, { name: `${P}none` });
    await pool.query(
      `INSERT INTO group_memberships (container_id, group_id, role) VALUES ($1, $2, 'author'), ($3, $2, 'manager')`,
      [
        both.id,
        outer,
        (await pool.query<{ id: number }>('SELECT id FROM containers WHERE name = $1', [`${P}none`])).rows[0].id,
      ],
    );
    expect(own.id).toBeGreaterThan(0);
  });

  afterAll(async () => {
    await pool.query('DELETE FROM groups WHERE name LIKE $1', [`${P}%`]);
    await pool.query('DELETE FROM containers WHERE name LIKE $1', [`${P}%`]);
    await pool.query('DELETE FROM users WHERE name LIKE $1', [`${P}%`]);
    await pool.end();
  });

  it('finds users by a part of their login or full name, any case, paged, names only', async () => {
    const res = await as(users[`${P}ben`]).get(`/principals/users?name=${P.toUpperCase()}&limit=2`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      count: 2,
      total: 3,
      page: 1,
      limit: 2,
      items: [
        { oid: expect.stringMatching(/^OR:wt\.org\.WTUser:\d+$/), name: `${P}ann`, fullName: 'Annie Prinz' },
        { oid: expect.stringMatching(/^OR:wt\.org\.WTUser:\d+$/), name: `${P}ben`, fullName: null },
      ],
    });
    const byFullName = await as(users[`${P}ben`]).get('/principals/users?name=annie%20p');
    expect([byFullName.status, byFullName.body.items.map((u: { name: string }) => u.name)]).toEqual([200, [`${P}ann`]]);
    const page2 = await as(users[`${P}ben`]).get(`/principals/users?name=${P}&limit=2&page=2`);
    expect([page2.status, page2.body.count, page2.body.total, page2.body.items[0].name]).toEqual([
      200,
      1,
      3,
      `${P}zed`,
    ]);
    const past = await as(users[`${P}ben`]).get(`/principals/users?name=${P}&limit=2&page=5`);
    expect([past.status, past.body]).toEqual([200, { count: 0, total: 3, page: 5, limit: 2, items: [] }]);
  });

  it('takes * and ? as a whole-name pattern, and % and _ as themselves', async () => {
    const pattern = await as(users[`${P}ben`]).get(`/principals/users?name=${P}?e*`);
    expect([pattern.status, pattern.body.items.map((u: { name: string }) => u.name)]).toEqual([
      200,
      [`${P}ben`, `${P}zed`],
    ]);
    const percent = await as(users[`${P}ben`]).get('/principals/users?name=%25');
    expect([percent.status, percent.body.total]).toEqual([200, 0]);
  });

  it('finds groups by a part of their name', async () => {
    const res = await as(users[`${P}zed`]).get(`/principals/groups?name=${P}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      count: 2,
      total: 2,
      page: 1,
      limit: 50,
      items: [
        { oid: `OR:wt.org.WTGroup:${inner}`, name: `${P}inner`, description: 'the inner one' },
        { oid: `OR:wt.org.WTGroup:${outer}`, name: `${P}outer`, description: null },
      ],
    });
  });

  it('tells the caller who they are: groups also through nesting, containers with the highest role', async () => {
    const res = await as(users[`${P}ann`]).get('/principals/me');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      oid: expect.stringMatching(/^OR:wt\.org\.WTUser:\d+$/),
      name: `${P}ann`,
      fullName: 'Annie Prinz',
      email: 'ann@example.com',
      admin: false,
      via: 'basic',
      scopes: null,
      groups: [
        { oid: `OR:wt.org.WTGroup:${inner}`, name: `${P}inner`, direct: true },
        { oid: `OR:wt.org.WTGroup:${outer}`, name: `${P}outer`, direct: false },
      ],
      containers: [
        { name: `${P}both`, role: 'author' },
        { name: `${P}none`, role: 'manager' },
        { name: `${P}own`, role: 'reader' },
      ],
    });
    const other = await as(users[`${P}zed`]).get('/principals/me');
    expect([other.status, other.body.groups, other.body.containers]).toEqual([200, [], []]);
  });

  it('refuses bad parameters and anonymous callers', async () => {
    const long = await as(ADMIN).get(`/principals/users?name=${'x'.repeat(201)}`);
    expect([long.status, long.body.message]).toEqual([400, 'name must be at most 200 characters']);
    const limit = await as(ADMIN).get('/principals/groups?limit=0');
    expect([limit.status, limit.body.message]).toEqual([400, 'limit must be at least 1']);
    const anonymous = await request(t.http).get('/principals/me');
    expect([anonymous.status, anonymous.body.statusCode]).toEqual([401, 401]);
  });
});
