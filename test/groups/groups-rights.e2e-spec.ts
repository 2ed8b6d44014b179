import request from 'supertest';
import type pg from 'pg';
import { GroupsService } from '../../src/groups/groups.service.js';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createContainer, generateUrl, type TestContainer } from '../numbers/numbers-fixtures.js';
import { accessRolesNowAndFromScratch, makeUsers } from './groups-fixtures.js';

const DOC = 'wt.doc.WTDocument';
const enc = encodeURIComponent;

/**
 * Rights through groups, seen by the next request: a group's role in a container is every
 * member's (directly or through nested groups), the highest of it and their own counts, and
 * taking a user or a group out, or deleting the group, takes the rights away at once.
 */
describe('rights through groups', () => {
  let pool: pg.Pool;
  let box: TestContainer;
  let users: Record<string, [string, string]>;
  const t = useTestApp();

  beforeAll(async () => {
    pool = testPool();
    await pool.query("DELETE FROM groups WHERE name LIKE 'Grp R %'");
    await pool.query("DELETE FROM containers WHERE name = 'Grp R Box'");
    users = await makeUsers(pool, ['grp-r1', 'grp-r2', 'grp-r3']);
    box = await createContainer(pool, {
      name: 'Grp R Box',
      cls: 'wt.inf.library.WTLibrary',
      rules: [{ cls: DOC, prefix: 'GR', width: 6, next: 1 }],
    });
  });

  afterAll(async () => {
    await pool.query("DELETE FROM groups WHERE name LIKE 'Grp R %'");
    await pool.query("DELETE FROM containers WHERE name = 'Grp R Box'");
    await pool.query("DELETE FROM users WHERE name LIKE 'grp-r%'");
    await pool.end();
  });

  const admin = {
    post: (url: string, body: object) =>
      request(t.http)
        .post(url)
        .auth(...USERS.admin)
        .send(body),
    put: (url: string, body: object = {}) =>
      request(t.http)
        .put(url)
        .auth(...USERS.admin)
        .send(body),
    del: (url: string) =>
      request(t.http)
        .delete(url)
        .auth(...USERS.admin),
  };
  async function group(name: string): Promise<number> {
    const res = await admin.post('/admin/groups', { name });
    expect(res.status).toBe(201);
    return res.body.id as number;
  }
  const role = (id: number, r: string) => admin.put(`/admin/containers/${enc(box.name)}/groups/${id}`, { role: r });
  /** The answer of a number reservation: 200 (writes), 403 (reads only) or 404 (no rights). */
  async function generate(user: string): Promise<[number, string | undefined]> {
    const res = await request(t.http)
      .post(generateUrl(DOC, { 'container-name': box.name }))
      .auth(...users[user]);
    return [res.status, res.status === 200 ? 'number' : res.body.message];
  }
  const none: [number, string] = [404, "no container named 'Grp R Box'"];
  const readOnly: [number, string] = [
    403,
    "generating numbers needs author or manager rights in container 'Grp R Box'",
  ];
  const writes: [number, string] = [200, 'number'];
  it('gives a group reader read rights only: writes answer 403', async () => {
    const readers = await group('Grp R Readers');
    expect(await generate('grp-r1')).toEqual(none);
    expect((await role(readers, 'reader')).status).toBe(201);
    expect((await admin.put(`/admin/groups/${readers}/users/grp-r1`)).status).toBe(201);
    expect(await generate('grp-r1')).toEqual(readOnly);
    expect((await role(readers, 'author')).status).toBe(200);
    expect(await generate('grp-r1')).toEqual(writes);
  });

  it('gives the members of a nested group the role, and takes it away at the next request when unnested', async () => {
    const outer = await group('Grp R Outer');
    const inner = await group('Grp R Inner');
    const innermost = await group('Grp R Innermost');
    expect((await role(outer, 'author')).status).toBe(201);
    expect((await admin.put(`/admin/groups/${inner}/users/grp-r2`)).status).toBe(201);
    expect(await generate('grp-r2')).toEqual(none);
    expect((await admin.put(`/admin/groups/${outer}/groups/${inner}`)).status).toBe(201);
    expect(await generate('grp-r2')).toEqual(writes);
    // Two levels down.
    expect((await admin.put(`/admin/groups/${innermost}/users/grp-r3`)).status).toBe(201);
    expect((await admin.put(`/admin/groups/${inner}/groups/${innermost}`)).status).toBe(201);
    expect(await generate('grp-r3')).toEqual(writes);
    expect((await admin.del(`/admin/groups/${outer}/groups/${inner}`)).status).toBe(204);
    expect(await generate('grp-r2')).toEqual(none);
    expect(await generate('grp-r3')).toEqual(none);
    const [now, scratch] = await accessRolesNowAndFromScratch(pool);
    expect(now).toEqual(scratch);
  });

  it('takes a user out of a group: the next request has no rights', async () => {
    const g = await group('Grp R Leave');
    expect((await role(g, 'reader')).status).toBe(201);
    expect((await admin.put(`/admin/groups/${g}/users/grp-r3`)).status).toBe(201);
    expect(await generate('grp-r3')).toEqual(readOnly);
    expect((await admin.del(`/admin/groups/${g}/users/grp-r3`)).status).toBe(204);
    expect(await generate('grp-r3')).toEqual(none);
  });

  it('gives the highest of a user own role and their groups roles', async () => {
    const g = await group('Grp R High');
    expect((await role(g, 'reader')).status).toBe(201);
    expect((await admin.put(`/admin/groups/${g}/users/grp-r3`)).status).toBe(201);
    const member = (r: string) => admin.put(`/admin/containers/${enc(box.name)}/members/grp-r3`, { role: r });
    expect((await member('author')).status).toBe(201);
    expect(await generate('grp-r3')).toEqual(writes);
    expect((await admin.del(`/admin/containers/${enc(box.name)}/members/grp-r3`)).status).toBe(204);
    expect(await generate('grp-r3')).toEqual(readOnly);
    expect((await member('reader')).status).toBe(201);
    expect((await role(g, 'author')).status).toBe(200);
    expect(await generate('grp-r3')).toEqual(writes);
    expect((await admin.del(`/admin/containers/${enc(box.name)}/groups/${g}`)).status).toBe(204);
    expect(await generate('grp-r3')).toEqual(readOnly);
    expect((await admin.del(`/admin/containers/${enc(box.name)}/members/grp-r3`)).status).toBe(204);
    expect(await generate('grp-r3')).toEqual(none);
  });

  it('takes the rights of a deleted group from all its members, nested ones included', async () => {
    const g = await group('Grp R Doomed');
    const sub = await group('Grp R Doomed Sub');
    expect((await role(g, 'manager')).status).toBe(201);
    expect((await admin.put(`/admin/groups/${g}/users/grp-r1`)).status).toBe(201);
    expect((await admin.put(`/admin/groups/${sub}/users/grp-r2`)).status).toBe(201);
    expect((await admin.put(`/admin/groups/${g}/groups/${sub}`)).status).toBe(201);
    expect(await generate('grp-r2')).toEqual(writes);
    const before = await pool.query(
      `SELECT u.name, a.role::text FROM access_roles a JOIN users u ON u.id = a.user_id
       WHERE a.container_id = $1 AND u.name IN ('grp-r1', 'grp-r2') ORDER BY 1`,
      [box.id],
    );
    expect(before.rows).toEqual([
      { name: 'grp-r1', role: 'manager' },
      { name: 'grp-r2', role: 'manager' },
    ]);
    expect((await admin.del(`/admin/groups/${g}`)).status).toBe(204);
    expect(await generate('grp-r2')).toEqual(none);
    // grp-r1 is still an author through Grp R Readers (the first test).
    expect(await generate('grp-r1')).toEqual(writes);
    const [now, scratch] = await accessRolesNowAndFromScratch(pool);
    expect(now).toEqual(scratch);
  });

  it('keeps access_roles equal to a recomputation after users and containers are deleted', async () => {
    const g = await group('Grp R Gone');
    expect((await admin.put(`/admin/groups/${g}/users/grp-r3`)).status).toBe(201);
    expect((await role(g, 'reader')).status).toBe(201);
    const [other] = (
      await pool.query<{ id: number }>(
        "INSERT INTO containers (class, name) VALUES ('wt.inf.library.WTLibrary', 'Grp R Other') RETURNING id",
      )
    ).rows;
    await pool.query("INSERT INTO group_memberships (container_id, group_id, role) VALUES ($1, $2, 'author')", [
      other.id,
      g,
    ]);
    await pool.query('DELETE FROM containers WHERE id = $1', [other.id]);
    const doomed = await makeUsers(pool, ['grp-r9']);
    expect((await admin.put(`/admin/groups/${g}/users/grp-r9`)).status).toBe(201);
    const del = await request(t.http)
      .delete('/admin/users/grp-r9')
      .auth(...USERS.admin);
    expect([del.status, doomed['grp-r9'][0]]).toEqual([204, 'grp-r9']);
    const [now, scratch] = await accessRolesNowAndFromScratch(pool);
    expect(now).toEqual(scratch);
  });

  describe('GroupsService for other modules', () => {
    it('syncs the groups of a claim, leaving the rows of administrators and other issuers alone', async () => {
      const groups = t.get(GroupsService);
      const [a, b, c] = [await group('Grp R Claim A'), await group('Grp R Claim B'), await group('Grp R Claim C')];
      const { rows } = await pool.query<{ id: number }>("SELECT id FROM users WHERE name = 'grp-r1'");
      const uid = rows[0].id;
      const rowsOf = async () =>
        (
          await pool.query(
            `SELECT g.name, gu.source FROM group_users gu JOIN groups g ON g.id = gu.group_id
             WHERE gu.user_id = $1 AND g.name LIKE 'Grp R Claim %' ORDER BY g.name`,
            [uid],
          )
        ).rows;
      expect((await admin.put(`/admin/groups/${c}/users/grp-r1`)).status).toBe(201);
      await groups.syncClaimGroups(uid, 'https://idp.example', ['Grp R Claim A', 'Grp R Claim C', 'Grp R Unknown']);
      expect(await rowsOf()).toEqual([
        { name: 'Grp R Claim A', source: 'https://idp.example' },
        { name: 'Grp R Claim C', source: '' },
      ]);
      const events = async () =>
        (
          await pool.query(
            "SELECT user_name, detail FROM audit_events WHERE action = 'admin.group.claims' AND user_id = $1 ORDER BY id",
            [uid],
          )
        ).rows;
      expect(await events()).toEqual([
        { user_name: 'grp-r1', detail: { source: 'https://idp.example', added: ['Grp R Claim A'], removed: [] } },
      ]);
      // The same claim again changes nothing and records nothing.
      await groups.syncClaimGroups(uid, 'https://idp.example', ['Grp R Claim C', 'Grp R Claim A']);
      expect(await events()).toHaveLength(1);
      await groups.syncClaimGroups(uid, 'https://other.example', ['Grp R Claim B']);
      await groups.syncClaimGroups(uid, 'https://idp.example', []);
      expect(await rowsOf()).toEqual([
        { name: 'Grp R Claim B', source: 'https://other.example' },
        { name: 'Grp R Claim C', source: '' },
      ]);
      expect((await events()).at(-1)).toEqual({
        user_name: 'grp-r1',
        detail: { source: 'https://idp.example', added: [], removed: ['Grp R Claim A'] },
      });
      expect(a).toBeGreaterThan(0);
      expect(b).toBeGreaterThan(0);
    });

    it('lists a user groups (nested ones not direct), container roles, and finds groups by name', async () => {
      const groups = t.get(GroupsService);
      const top = await group('Grp R List Top');
      const mid = await group('Grp R List Mid');
      expect((await admin.put(`/admin/groups/${top}/groups/${mid}`)).status).toBe(201);
      expect((await admin.put(`/admin/groups/${mid}/users/grp-r2`)).status).toBe(201);
      expect((await role(top, 'reader')).status).toBe(201);
      const { rows } = await pool.query<{ id: number }>("SELECT id FROM users WHERE name = 'grp-r2'");
      expect((await groups.userGroups(rows[0].id)).filter((g) => g.name.startsWith('Grp R List'))).toEqual([
        { id: mid, name: 'Grp R List Mid', direct: true },
        { id: top, name: 'Grp R List Top', direct: false },
      ]);
      expect(await groups.userContainerRoles(rows[0].id)).toEqual([
        { containerId: box.id, containerName: 'Grp R Box', role: 'reader' },
      ]);
      expect(await groups.searchGroups({ name: 'grp r list*', page: 1, limit: 10 })).toEqual({
        count: 2,
        total: 2,
        page: 1,
        limit: 10,
        items: [
          { id: mid, name: 'Grp R List Mid', description: null, createdAt: expect.any(String), users: 1, groups: 0 },
          { id: top, name: 'Grp R List Top', description: null, createdAt: expect.any(String), users: 0, groups: 1 },
        ],
      });
    });
  });
});
