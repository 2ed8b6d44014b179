import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { NESTING_DEPTH_MAX } from '../../src/groups/group-rules.js';

const enc = encodeURIComponent;

/** The administration of groups: every route, its answers and its errors, and the events recorded. */
describe('/admin/groups', () => {
  let pool: pg.Pool;
  const t = useTestApp();

  beforeAll(async () => {
    pool = testPool();
    await pool.query("DELETE FROM groups WHERE name LIKE 'Adm G %'");
    await pool.query("DELETE FROM containers WHERE name = 'Adm G Box'");
    await pool.query("INSERT INTO containers (class, name) VALUES ('wt.inf.library.WTLibrary', 'Adm G Box')");
  });

  afterAll(async () => {
    await pool.query("DELETE FROM groups WHERE name LIKE 'Adm G %'");
    await pool.query("DELETE FROM containers WHERE name = 'Adm G Box'");
    await pool.end();
  });

  const as = (user: readonly [string, string]) => ({
    get: (url: string) =>
      request(t.http)
        .get(url)
        .auth(...user),
    post: (url: string, body: object) =>
      request(t.http)
        .post(url)
        .auth(...user)
        .send(body),
    patch: (url: string, body: object) =>
      request(t.http)
        .patch(url)
        .auth(...user)
        .send(body),
    put: (url: string, body: object = {}) =>
      request(t.http)
        .put(url)
        .auth(...user)
        .send(body),
    del: (url: string) =>
      request(t.http)
        .delete(url)
        .auth(...user),
  });
  const admin = as(USERS.admin);
  const error = (res: request.Response, statusCode: number, err: string, message: string) => {
    expect([res.status, res.body]).toEqual([
      statusCode,
      { statusCode, error: err, message, requestId: res.headers['x-request-id'] },
    ]);
  };
  async function create(name: string, description?: string): Promise<number> {
    const res = await admin.post('/admin/groups', { name, ...(description && { description }) });
    expect(res.status).toBe(201);
    return res.body.id as number;
  }
  async function events(action: string, objectNumber: string) {
    const { rows } = await pool.query(
      'SELECT user_name, detail FROM audit_events WHERE action = $1 AND object_number = $2 ORDER BY id',
      [action, objectNumber],
    );
    return rows;
  }

  it('creates, shows, lists, renames and deletes a group, recording each change', async () => {
    const made = await admin.post('/admin/groups', { name: 'Adm G One', description: 'first' });
    expect([made.status, made.body]).toEqual([
      201,
      {
        id: expect.any(Number),
        name: 'Adm G One',
        description: 'first',
        createdAt: expect.any(String),
        users: 0,
        groups: 0,
      },
    ]);
    const id = made.body.id as number;
    const shown = await admin.get(`/admin/groups/${id}`);
    expect([shown.status, shown.body]).toEqual([200, made.body]);

    await create('Adm G Two');
    const list = await admin.get('/admin/groups?name=adm g *&limit=1');
    expect([list.status, list.body]).toEqual([200, { count: 1, total: 2, page: 1, limit: 1, items: [made.body] }]);
    const page2 = await admin.get('/admin/groups?name=Adm G*&limit=1&page=2');
    expect(page2.body.items.map((g: { name: string }) => g.name)).toEqual(['Adm G Two']);

    const renamed = await admin.patch(`/admin/groups/${id}`, { name: 'Adm G Uno', description: null });
    expect([renamed.status, renamed.body]).toEqual([200, { ...made.body, name: 'Adm G Uno', description: null }]);
    const taken = await admin.patch(`/admin/groups/${id}`, { name: 'Adm G Two' });
    error(taken, 409, 'Conflict', "name: a group named 'Adm G Two' already exists");
    const empty = await admin.patch(`/admin/groups/${id}`, {});
    error(empty, 400, 'Bad Request', 'give at least one of name, description');
    const dup = await admin.post('/admin/groups', { name: 'Adm G Two' });
    error(dup, 409, 'Conflict', "name: a group named 'Adm G Two' already exists");

    const gone = await admin.del(`/admin/groups/${id}`);
    expect([gone.status, gone.body]).toEqual([204, {}]);
    error(await admin.get(`/admin/groups/${id}`), 404, 'Not Found', `no group with id ${id}`);
    error(await admin.del(`/admin/groups/${id}`), 404, 'Not Found', `no group with id ${id}`);

    expect(await events('admin.group.create', 'Adm G One')).toEqual([
      { user_name: 'admin', detail: { after: { name: 'Adm G One', description: 'first' } } },
    ]);
    expect(await events('admin.group.update', 'Adm G Uno')).toEqual([
      {
        user_name: 'admin',
        detail: {
          before: { name: 'Adm G One', description: 'first' },
          after: { name: 'Adm G Uno', description: null },
        },
      },
    ]);
    expect(await events('admin.group.delete', 'Adm G Uno')).toEqual([
      { user_name: 'admin', detail: { before: { name: 'Adm G Uno', description: null, users: 0, groups: 0 } } },
    ]);
  });

  it('refuses bad names, ids and bodies with 400 naming the field', async () => {
    error(
      await admin.post('/admin/groups', { name: ' padded' }),
      400,
      'Bad Request',
      'name must be 1 to 200 printable characters, no control characters, no leading or trailing space',
    );
    const unknown = await admin.post('/admin/groups', { name: 'Adm G X', admin: true });
    expect([unknown.status, unknown.body.message]).toEqual([400, 'property admin should not exist']);
    error(await admin.get('/admin/groups/abc'), 400, 'Bad Request', 'id must be a whole number from 1 to 2147483647');
    error(await admin.get('/admin/groups/0'), 400, 'Bad Request', 'id must be a whole number from 1 to 2147483647');
    error(await admin.get('/admin/groups?limit=0'), 400, 'Bad Request', 'limit must be at least 1');
  });

  it('answers callers who are not administrators 403 on every route of /admin/groups', async () => {
    const id = await create('Adm G Closed');
    const alice = as(USERS.alice);
    const message = 'this administration operation needs an administrator';
    for (const res of [
      await alice.get('/admin/groups'),
      await alice.post('/admin/groups', { name: 'Adm G Mine' }),
      await alice.get(`/admin/groups/${id}`),
      await alice.patch(`/admin/groups/${id}`, { name: 'Adm G Mine' }),
      await alice.del(`/admin/groups/${id}`),
      await alice.get(`/admin/groups/${id}/members`),
      await alice.put(`/admin/groups/${id}/users/alice`),
      await alice.del(`/admin/groups/${id}/users/alice`),
      await alice.put(`/admin/groups/${id}/groups/${id}`),
      await alice.del(`/admin/groups/${id}/groups/${id}`),
    ]) {
      error(res, 403, 'Forbidden', message);
    }
    const none = await request(t.http).get('/admin/groups');
    expect([none.status, none.body.error]).toEqual([401, 'Unauthorized']);
    expect((await pool.query('SELECT count(*)::int AS n FROM group_users WHERE group_id = $1', [id])).rows).toEqual([
      { n: 0 },
    ]);
  });

  it('puts users and groups into a group, lists them, and takes them out again', async () => {
    const outer = await create('Adm G Outer');
    const inner = await create('Adm G Inner');
    const added = await admin.put(`/admin/groups/${outer}/users/bob`);
    expect([added.status, added.body]).toEqual([
      201,
      { groupId: outer, user: 'bob', fullName: expect.any(String), source: '' },
    ]);
    const again = await admin.put(`/admin/groups/${outer}/users/bob`);
    expect([again.status, again.body]).toEqual([200, added.body]);
    const nested = await admin.put(`/admin/groups/${outer}/groups/${inner}`);
    expect([nested.status, nested.body]).toEqual([
      201,
      { groupId: outer, group: 'Adm G Outer', memberGroupId: inner, memberGroup: 'Adm G Inner' },
    ]);
    expect((await admin.put(`/admin/groups/${outer}/groups/${inner}`)).status).toBe(200);

    const members = await admin.get(`/admin/groups/${outer}/members`);
    expect([members.status, members.body]).toEqual([
      200,
      {
        count: 2,
        total: 2,
        page: 1,
        limit: 50,
        id: outer,
        group: 'Adm G Outer',
        items: [
          { kind: 'group', id: inner, name: 'Adm G Inner' },
          { kind: 'user', id: expect.any(Number), name: 'bob', fullName: expect.any(String), source: '' },
        ],
      },
    ]);
    const shown = await admin.get(`/admin/groups/${outer}`);
    expect(shown.body).toMatchObject({ users: 1, groups: 1 });

    error(await admin.put(`/admin/groups/${outer}/users/nobody-here`), 404, 'Not Found', "no user named 'nobody-here'");
    error(await admin.put('/admin/groups/999999999/users/bob'), 404, 'Not Found', 'no group with id 999999999');
    error(await admin.put(`/admin/groups/${outer}/groups/999999999`), 404, 'Not Found', 'no group with id 999999999');
    error(
      await admin.put(`/admin/groups/${outer}/groups/${outer}`),
      409,
      'Conflict',
      `group cycle: group ${outer} cannot be a member of itself`,
    );
    error(
      await admin.put(`/admin/groups/${inner}/groups/${outer}`),
      409,
      'Conflict',
      'group cycle: Adm G Outer > Adm G Inner (each contains the next), so the first cannot be put into the last',
    );

    expect((await admin.del(`/admin/groups/${outer}/users/bob`)).status).toBe(204);
    error(
      await admin.del(`/admin/groups/${outer}/users/bob`),
      404,
      'Not Found',
      `'bob' is not in group ${outer} ('Adm G Outer')`,
    );
    expect((await admin.del(`/admin/groups/${outer}/groups/${inner}`)).status).toBe(204);
    error(
      await admin.del(`/admin/groups/${outer}/groups/${inner}`),
      404,
      'Not Found',
      `group ${inner} is not in group ${outer} ('Adm G Outer')`,
    );
    const emptied = await admin.get(`/admin/groups/${outer}/members`);
    expect(emptied.body).toMatchObject({ count: 0, total: 0, items: [] });

    expect(await events('admin.group.user.add', 'Adm G Outer')).toEqual([
      { user_name: 'admin', detail: { user: 'bob', before: null, after: '' } },
    ]);
    expect(await events('admin.group.group.add', 'Adm G Outer')).toEqual([
      { user_name: 'admin', detail: { group: { id: inner, name: 'Adm G Inner' } } },
    ]);
    expect(await events('admin.group.user.remove', 'Adm G Outer')).toEqual([
      { user_name: 'admin', detail: { user: 'bob', source: '' } },
    ]);
  });

  it(`refuses nesting groups more than ${NESTING_DEPTH_MAX} deep`, async () => {
    const ids: number[] = [];
    for (let i = 0; i <= NESTING_DEPTH_MAX; i++) ids.push(await create(`Adm G Deep ${i}`));
    for (let i = 1; i < NESTING_DEPTH_MAX; i++) {
      expect((await admin.put(`/admin/groups/${ids[i - 1]}/groups/${ids[i]}`)).status).toBe(201);
    }
    error(
      await admin.put(`/admin/groups/${ids[NESTING_DEPTH_MAX - 1]}/groups/${ids[NESTING_DEPTH_MAX]}`),
      409,
      'Conflict',
      `putting 'Adm G Deep ${NESTING_DEPTH_MAX}' into 'Adm G Deep ${NESTING_DEPTH_MAX - 1}' would nest groups more than ${NESTING_DEPTH_MAX} deep`,
    );
  });

  describe('/admin/containers/:container/groups', () => {
    const box = `/admin/containers/${enc('Adm G Box')}/groups`;

    it('sets, lists, changes and removes a group role, for administrators and managers of the container', async () => {
      const id = await create('Adm G Role');
      const set = await admin.put(`${box}/${id}`, { role: 'reader' });
      expect([set.status, set.body]).toEqual([201, { id, name: 'Adm G Role', role: 'reader' }]);
      const same = await admin.put(`${box}/${id}`, { role: 'reader' });
      expect([same.status, same.body]).toEqual([200, set.body]);
      const list = await admin.get(box);
      expect([list.status, list.body]).toEqual([
        200,
        { count: 1, total: 1, page: 1, limit: 50, container: 'Adm G Box', items: [set.body] },
      ]);

      // carol: no role in the box (404), then a reader (403), then a manager through a group.
      const carol = as(USERS.carol);
      error(await carol.get(box), 404, 'Not Found', "no container named 'Adm G Box'");
      expect((await admin.put(`/admin/groups/${id}/users/carol`)).status).toBe(201);
      error(
        await carol.put(`${box}/${id}`, { role: 'manager' }),
        403,
        'Forbidden',
        "managing the groups of container 'Adm G Box' needs manager rights there",
      );
      const promoted = await admin.put(`${box}/${id}`, { role: 'manager' });
      expect([promoted.status, promoted.body]).toEqual([200, { id, name: 'Adm G Role', role: 'manager' }]);
      const other = await create('Adm G Other');
      const byManager = await carol.put(`${box}/${other}`, { role: 'author' });
      expect([byManager.status, byManager.body]).toEqual([201, { id: other, name: 'Adm G Other', role: 'author' }]);
      expect((await carol.get(box)).body.items).toEqual([
        { id: other, name: 'Adm G Other', role: 'author' },
        { id, name: 'Adm G Role', role: 'manager' },
      ]);
      expect((await carol.del(`${box}/${other}`)).status).toBe(204);

      error(
        await admin.put(`${box}/${id}`, { role: 'owner' }),
        400,
        'Bad Request',
        'role must be one of reader, author, manager',
      );
      error(await admin.put(`${box}/999999999`, { role: 'reader' }), 404, 'Not Found', 'no group with id 999999999');
      error(
        await admin.put(`/admin/containers/${enc('Adm G Nowhere')}/groups/${id}`, { role: 'reader' }),
        404,
        'Not Found',
        "no container named 'Adm G Nowhere'",
      );
      error(
        await admin.del(`${box}/${other}`),
        404,
        'Not Found',
        `group ${other} has no role in container 'Adm G Box'`,
      );

      const { rows } = await pool.query(
        `SELECT user_name, detail FROM audit_events WHERE action LIKE 'admin.group.role.%' AND object_number = 'Adm G Box' ORDER BY id`,
      );
      expect(rows).toEqual([
        { user_name: 'admin', detail: { group: { id, name: 'Adm G Role' }, before: null, after: 'reader' } },
        { user_name: 'admin', detail: { group: { id, name: 'Adm G Role' }, before: 'reader', after: 'manager' } },
        { user_name: 'carol', detail: { group: { id: other, name: 'Adm G Other' }, before: null, after: 'author' } },
        { user_name: 'carol', detail: { group: { id: other }, before: 'author', after: null } },
      ]);
    });
  });
});
