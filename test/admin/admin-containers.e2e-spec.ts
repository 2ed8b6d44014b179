import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';

const enc = encodeURIComponent;

describe('/admin/containers and their members', () => {
  let pool: pg.Pool;

  const t = useTestApp();
  beforeAll(async () => {
    pool = testPool();
    await pool.query("DELETE FROM containers WHERE name LIKE 'Adm C %'");
  });

  afterAll(async () => {
    await pool.end();
  });

  const admin = () => request(t.http);
  async function container(name: string) {
    const { rows } = await pool.query('SELECT id, class, name, description FROM containers WHERE name = $1', [name]);
    return rows[0] as { id: number; class: string; description: string | null } | undefined;
  }
  async function members(name: string) {
    const { rows } = await pool.query(
      `SELECT u.name, m.role::text FROM memberships m JOIN users u ON u.id = m.user_id
       JOIN containers c ON c.id = m.container_id WHERE c.name = $1 ORDER BY u.name`,
      [name],
    );
    return rows;
  }

  it('creates, lists, renames and deletes an empty container', async () => {
    const made = await admin()
      .post('/admin/containers')
      .auth(...USERS.admin)
      .send({ class: 'wt.inf.library.WTLibrary', name: 'Adm C One', description: 'first' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      oid: expect.stringMatching(/^OR:wt\.inf\.library\.WTLibrary:\d+$/),
      class: 'wt.inf.library.WTLibrary',
      name: 'Adm C One',
      description: 'first',
      createdAt: expect.any(String),
    });
    const list = await admin()
      .get('/admin/containers?limit=500')
      .auth(...USERS.admin);
    expect(list.status).toBe(200);
    expect(list.body.items.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['Adm C One', 'Drive Unit', 'Standard Parts', 'Secret Project']),
    );
    const dup = await admin()
      .post('/admin/containers')
      .auth(...USERS.admin)
      .send({ class: 'wt.inf.library.WTLibrary', name: 'Adm C One' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe("name: a container named 'Adm C One' already exists");

    const renamed = await admin()
      .patch(`/admin/containers/${enc('Adm C One')}`)
      .auth(...USERS.admin)
      .send({ name: 'Adm C Two', description: null });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Adm C Two', description: null, oid: made.body.oid });
    const taken = await admin()
      .patch(`/admin/containers/${enc('Adm C Two')}`)
      .auth(...USERS.admin)
      .send({ name: 'Drive Unit' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("name: a container named 'Drive Unit' already exists");

    const del = await admin()
      .delete(`/admin/containers/${enc('Adm C Two')}`)
      .auth(...USERS.admin);
    expect(del.status).toBe(204);
    expect(await container('Adm C Two')).toBeUndefined();
    const again = await admin()
      .delete(`/admin/containers/${enc('Adm C Two')}`)
      .auth(...USERS.admin);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe("no container named 'Adm C Two'");
  });

  it('refuses to delete a container that holds objects (409), deleting nothing', async () => {
    const res = await admin()
      .delete(`/admin/containers/${enc('Drive Unit')}`)
      .auth(...USERS.admin);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^container 'Drive Unit' is not empty: it holds \d+ business object\(s\)/);
    expect(await container('Drive Unit')).toBeDefined();
    expect(await members('Drive Unit')).toEqual(expect.arrayContaining([{ name: 'alice', role: 'author' }]));
  });

  it.each([
    [{ name: 'Adm C X' }, 'class must be one of'],
    [{ class: 'wt.doc.WTDocument', name: 'Adm C X' }, 'class must be one of'],
    [{ class: 'wt.inf.library.WTLibrary' }, 'name must be a string'],
    [{ class: 'wt.inf.library.WTLibrary', name: ' Adm C X' }, 'name must be 1 to 200 printable characters'],
    [{ class: 'wt.inf.library.WTLibrary', name: 'Adm C\nX' }, 'name must be 1 to 200 printable characters'],
    [{ class: 'wt.inf.library.WTLibrary', name: 'Adm C/X' }, 'name must be 1 to 200 printable characters'],
    [{ class: 'wt.inf.library.WTLibrary', name: 'A'.repeat(201) }, 'name must be 1 to 200 printable characters'],
    [{ class: 'wt.inf.library.WTLibrary', name: 'Adm C X', description: 7 }, 'description must be a string'],
  ])('refuses the body %j naming the field', async (body, message) => {
    const res = await admin()
      .post('/admin/containers')
      .auth(...USERS.admin)
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(await container('Adm C X')).toBeUndefined();
  });

  it('lets a manager set and remove members of their container only', async () => {
    // carol manages Standard Parts (demo data).
    const set = await admin()
      .put(`/admin/containers/${enc('Standard Parts')}/members/admin`)
      .auth(...USERS.carol)
      .send({ role: 'author' });
    expect(set.status).toBe(201);
    expect(set.body).toEqual({ user: 'admin', fullName: 'Administrator', role: 'author' });
    const change = await admin()
      .put(`/admin/containers/${enc('Standard Parts')}/members/admin`)
      .auth(...USERS.carol)
      .send({ role: 'reader' });
    expect(change.status).toBe(200);
    expect(change.body.role).toBe('reader');
    const list = await admin()
      .get(`/admin/containers/${enc('Standard Parts')}/members`)
      .auth(...USERS.carol);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ container: 'Standard Parts', page: 1, limit: 50 });
    expect(list.body.items).toEqual(
      expect.arrayContaining([
        { user: 'admin', fullName: 'Administrator', role: 'reader' },
        { user: 'carol', fullName: expect.any(String), role: 'manager' },
      ]),
    );
    const removed = await admin()
      .delete(`/admin/containers/${enc('Standard Parts')}/members/admin`)
      .auth(...USERS.carol);
    expect(removed.status).toBe(204);
    expect((await members('Standard Parts')).map((m) => m.name)).not.toContain('admin');
    const gone = await admin()
      .delete(`/admin/containers/${enc('Standard Parts')}/members/admin`)
      .auth(...USERS.carol);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe("'admin' is not a member of container 'Standard Parts'");

    // carol is an author in Secret Project: members of it are not hers to manage.
    const notManager = await admin()
      .put(`/admin/containers/${enc('Secret Project')}/members/bob`)
      .auth(...USERS.carol)
      .send({ role: 'reader' });
    expect(notManager.status).toBe(403);
    expect(notManager.body.message).toBe(
      "managing the members of container 'Secret Project' needs manager rights there",
    );
    // Drive Unit she cannot even read: it is answered like a container that does not exist.
    const hidden = await admin()
      .get(`/admin/containers/${enc('Drive Unit')}/members`)
      .auth(...USERS.carol);
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe("no container named 'Drive Unit'");
    expect(await members('Secret Project')).toEqual([{ name: 'carol', role: 'author' }]);
  });

  it.each([
    ['alice (author)', USERS.alice, 'Drive Unit', 403],
    ['bob (reader)', USERS.bob, 'Drive Unit', 403],
    ['bob (not a member)', USERS.bob, 'Secret Project', 404],
  ])('refuses %s membership changes', async (_, creds, name, status) => {
    const before = await members(name);
    const calls = [
      () =>
        admin()
          .get(`/admin/containers/${enc(name)}/members`)
          .auth(creds[0], creds[1]),
      () =>
        admin()
          .put(`/admin/containers/${enc(name)}/members/bob`)
          .auth(creds[0], creds[1])
          .send({ role: 'manager' }),
      () =>
        admin()
          .delete(`/admin/containers/${enc(name)}/members/alice`)
          .auth(creds[0], creds[1]),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(status);
    }
    expect(await members(name)).toEqual(before);
  });

  it('refuses container operations to everyone but administrators', async () => {
    for (const creds of [USERS.alice, USERS.bob, USERS.carol]) {
      const calls = [
        () => admin().get('/admin/containers').auth(creds[0], creds[1]),
        () =>
          admin()
            .post('/admin/containers')
            .auth(creds[0], creds[1])
            .send({ class: 'wt.inf.library.WTLibrary', name: 'Adm C Sneak' }),
        () =>
          admin()
            .patch(`/admin/containers/${enc('Standard Parts')}`)
            .auth(creds[0], creds[1])
            .send({ description: 'x' }),
        () =>
          admin()
            .delete(`/admin/containers/${enc('Standard Parts')}`)
            .auth(creds[0], creds[1]),
      ];
      for (const call of calls) {
        const res = await call();
        expect(res.status).toBe(403);
        expect(res.body.message).toBe('this administration operation needs an administrator');
      }
    }
    expect(await container('Adm C Sneak')).toBeUndefined();
    expect((await admin().get('/admin/containers')).status).toBe(401);
    expect((await admin().put(`/admin/containers/x/members/bob`).send({ role: 'reader' })).status).toBe(401);
  });

  it('refuses bad member input naming the field', async () => {
    const bad = await admin()
      .put(`/admin/containers/${enc('Standard Parts')}/members/bob`)
      .auth(...USERS.admin)
      .send({ role: 'owner' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('role must be one of reader, author, manager');
    const nobody = await admin()
      .put(`/admin/containers/${enc('Standard Parts')}/members/adm-c-nobody`)
      .auth(...USERS.admin)
      .send({ role: 'reader' });
    expect(nobody.status).toBe(404);
    expect(nobody.body.message).toBe("no user named 'adm-c-nobody'");
    expect(await members('Standard Parts')).toEqual(expect.arrayContaining([{ name: 'bob', role: 'reader' }]));
  });
});
