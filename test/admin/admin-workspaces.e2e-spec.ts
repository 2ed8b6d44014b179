import type pg from 'pg';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';

describe('/admin/workspaces and /admin/content-roles', () => {
  let pool: pg.Pool;

  const t = useTestApp();
  beforeAll(async () => {
    pool = testPool();
    await pool.query("DELETE FROM workspaces WHERE name LIKE 'adm-ws-%'");
    await pool.query("DELETE FROM content_roles WHERE name LIKE 'ADM_%'");
  });

  afterAll(async () => {
    await pool.query("DELETE FROM content_roles WHERE name LIKE 'ADM_%'");
    await pool.end();
  });

  const workspaceNames = async () =>
    (await pool.query<{ name: string }>("SELECT name FROM workspaces WHERE name LIKE 'adm-ws-%'")).rows.map(
      (r) => r.name,
    );

  it('creates a workspace the number service then finds, lists and deletes it', async () => {
    const made = await request(t.http)
      .post('/admin/workspaces')
      .auth(...USERS.admin)
      .send({ name: 'adm-ws-one', container: 'Drive Unit', owner: 'alice' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      oid: expect.stringMatching(/^OR:wt\.epm\.workspaces\.EPMWorkspace:\d+$/),
      name: 'adm-ws-one',
      container: 'Drive Unit',
      owner: 'alice',
    });
    const rules = await request(t.http)
      .get('/numbers/rules?workspace-name=adm-ws-one')
      .auth(...USERS.alice);
    expect(rules.status).toBe(200);
    expect(rules.body.container.name).toBe('Drive Unit');
    const list = await request(t.http)
      .get('/admin/workspaces?limit=500')
      .auth(...USERS.admin);
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual(expect.arrayContaining([made.body]));
    const dup = await request(t.http)
      .post('/admin/workspaces')
      .auth(...USERS.admin)
      .send({ name: 'adm-ws-one', container: 'Standard Parts', owner: 'bob' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe("name: a workspace named 'adm-ws-one' already exists");
    const del = await request(t.http)
      .delete('/admin/workspaces/adm-ws-one')
      .auth(...USERS.admin);
    expect(del.status).toBe(204);
    expect(await workspaceNames()).toEqual([]);
    const again = await request(t.http)
      .delete('/admin/workspaces/adm-ws-one')
      .auth(...USERS.admin);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe("no workspace named 'adm-ws-one'");
  });

  it.each([
    [{ name: 'adm-ws-x', container: 'Nowhere', owner: 'alice' }, 404, "container: no container named 'Nowhere'"],
    [{ name: 'adm-ws-x', container: 'Drive Unit', owner: 'nobody' }, 404, "owner: no user named 'nobody'"],
    [{ container: 'Drive Unit', owner: 'alice' }, 400, 'name must be a string'],
    [{ name: 'adm-ws-x', owner: 'alice' }, 400, 'container must be a string'],
    [{ name: 'adm-ws-x', container: 'Drive Unit', owner: 'a:b' }, 400, 'owner must be 1 to 64'],
    [{ name: '\tadm-ws-x', container: 'Drive Unit', owner: 'alice' }, 400, 'name must be 1 to 200 printable'],
  ])('refuses %j naming the field, storing nothing', async (body, status, message) => {
    const res = await request(t.http)
      .post('/admin/workspaces')
      .auth(...USERS.admin)
      .send(body);
    expect(res.status).toBe(status);
    expect(res.body.message).toContain(message);
    expect(await workspaceNames()).toEqual([]);
  });

  it('lists and creates content roles, which files can use at once', async () => {
    const made = await request(t.http)
      .post('/admin/content-roles')
      .auth(...USERS.admin)
      .send({ name: 'ADM_MARKUP' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ name: 'ADM_MARKUP' });
    const list = await request(t.http)
      .get('/admin/content-roles')
      .auth(...USERS.admin);
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual(
      expect.arrayContaining([{ name: 'ADM_MARKUP' }, { name: 'PRIMARY' }, { name: 'SECONDARY' }]),
    );
    expect(list.body.count).toBe(list.body.items.length);
    const dup = await request(t.http)
      .post('/admin/content-roles')
      .auth(...USERS.admin)
      .send({ name: 'ADM_MARKUP' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('name: the content role ADM_MARKUP exists');
    for (const name of ['markup', 'ADM MARKUP', 'A'.repeat(41), '']) {
      const bad = await request(t.http)
        .post('/admin/content-roles')
        .auth(...USERS.admin)
        .send({ name });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('name must be 1 to 40 upper-case letters, digits or _, starting with a letter');
    }
  });

  it('refuses everyone but administrators', async () => {
    for (const creds of [USERS.alice, USERS.bob, USERS.carol]) {
      const calls = [
        () => request(t.http).get('/admin/workspaces').auth(creds[0], creds[1]),
        () =>
          request(t.http)
            .post('/admin/workspaces')
            .auth(creds[0], creds[1])
            .send({ name: 'adm-ws-s', container: 'Drive Unit', owner: 'bob' }),
        () => request(t.http).delete('/admin/workspaces/alice-ws').auth(creds[0], creds[1]),
        () => request(t.http).get('/admin/content-roles').auth(creds[0], creds[1]),
        () => request(t.http).post('/admin/content-roles').auth(creds[0], creds[1]).send({ name: 'ADM_SNEAK' }),
      ];
      for (const call of calls) {
        const res = await call();
        expect(res.status).toBe(403);
      }
    }
    expect((await request(t.http).get('/admin/content-roles')).status).toBe(401);
    expect(await workspaceNames()).toEqual([]);
    const { rows } = await pool.query("SELECT 1 FROM workspaces WHERE name = 'alice-ws'");
    expect(rows).toHaveLength(1);
  });
});
