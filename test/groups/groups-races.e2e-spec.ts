import pg from 'pg';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { interleave } from '../helpers/interleave.js';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { accessRolesNowAndFromScratch } from './groups-fixtures.js';

const LOCK_BODY = "SELECT pg_advisory_xact_lock(hashtext('pdm.access_roles'))";

/**
 * Changes of groups made at the same time, forced to interleave: a connection of the test holds
 * audit_events in SHARE mode, which every change writes last, after its rows and the roles they
 * recompute. Only because each change takes the transaction-long advisory lock of access roles
 * (access_roles_lock, in the database triggers and the groups repository) before it reads does
 * the second change wait for the first to commit and then see it. The same race is run once
 * more with the lock made a no-op in this database, where the guard is then shown missing.
 */
describe('groups under concurrent changes', () => {
  let db: ScratchDatabase;
  let t: TestApp;
  let pool: pg.Pool;

  beforeAll(async () => {
    db = await scratchDatabase({ demo: true });
    t = await createTestApp({ DATABASE_URL: db.url });
    // One listening server: requests running at the same time must not each start and stop their own.
    await t.app.listen(0, '127.0.0.1');
    pool = new pg.Pool({ connectionString: db.url, max: 3 });
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await t?.close();
    await db?.drop();
  });

  const put =
    (url: string, body: object = {}) =>
    () =>
      request(t.http)
        .put(url)
        .auth(...USERS.admin)
        .send(body);
  async function group(name: string): Promise<number> {
    const res = await request(t.http)
      .post('/admin/groups')
      .auth(...USERS.admin)
      .send({ name });
    expect(res.status).toBe(201);
    return res.body.id as number;
  }
  const hold = 'LOCK TABLE audit_events IN SHARE MODE';
  async function withoutLock(work: () => Promise<void>): Promise<void> {
    await pool.query("CREATE OR REPLACE FUNCTION access_roles_lock() RETURNS void LANGUAGE sql AS 'SELECT NULL::void'");
    try {
      await work();
    } finally {
      await pool.query(`CREATE OR REPLACE FUNCTION access_roles_lock() RETURNS void LANGUAGE sql AS $$${LOCK_BODY}$$`);
    }
  }
  const edges = async (ids: number[]) =>
    (
      await pool.query('SELECT group_id, member_group_id FROM group_groups WHERE group_id = ANY($1) ORDER BY 1, 2', [
        ids,
      ])
    ).rows;

  it('refuses the second of A into B and B into A made at once', async () => {
    const [a, b] = [await group('Race A'), await group('Race B')];
    const [first, second] = await interleave(
      pool,
      hold,
      put(`/admin/groups/${b}/groups/${a}`),
      put(`/admin/groups/${a}/groups/${b}`),
    );
    expect([first.status, second.status]).toEqual([201, 409]);
    expect(second.body.message).toBe(
      'group cycle: Race B > Race A (each contains the next), so the first cannot be put into the last',
    );
    expect(await edges([a, b])).toEqual([{ group_id: b, member_group_id: a }]);
  });

  it('stores the cycle when the lock is a no-op (the guard the test above needs)', async () => {
    const [a, b] = [await group('Race Loose A'), await group('Race Loose B')];
    await withoutLock(async () => {
      const [first, second] = await interleave(
        pool,
        hold,
        put(`/admin/groups/${b}/groups/${a}`),
        put(`/admin/groups/${a}/groups/${b}`),
      );
      expect([first.status, second.status]).toEqual([201, 201]);
    });
    expect(await edges([a, b])).toHaveLength(2);
    await pool.query('DELETE FROM groups WHERE id = ANY($1)', [[a, b]]);
  });

  /** A user put into a group while the group is given a role: the user must get the role. */
  async function userAndRoleAtOnce(name: string) {
    const g = await group(name);
    const res = await interleave(
      pool,
      hold,
      put(`/admin/groups/${g}/users/bob`),
      put(`/admin/containers/${encodeURIComponent('Secret Project')}/groups/${g}`, { role: 'manager' }),
    );
    const { rows } = await pool.query(
      `SELECT a.role::text FROM access_roles a JOIN users u ON u.id = a.user_id
       JOIN containers c ON c.id = a.container_id WHERE u.name = 'bob' AND c.name = 'Secret Project'`,
    );
    return { statuses: res.map((r) => r.status), roles: rows };
  }

  it('leaves access_roles as a recomputation from scratch when a user and a group role are added at once', async () => {
    const { statuses, roles } = await userAndRoleAtOnce('Race Roles');
    expect(statuses).toEqual([201, 201]);
    expect(roles).toEqual([{ role: 'manager' }]);
    const [now, scratch] = await accessRolesNowAndFromScratch(pool);
    expect(now).toEqual(scratch);
  });

  it('loses the role when the lock is a no-op (the guard the test above needs)', async () => {
    await pool.query("DELETE FROM groups WHERE name = 'Race Roles'");
    let outcome: Awaited<ReturnType<typeof userAndRoleAtOnce>> | undefined;
    await withoutLock(async () => {
      outcome = await userAndRoleAtOnce('Race Roles Loose');
    });
    expect(outcome).toEqual({ statuses: [201, 201], roles: [] });
    const [now, scratch] = await accessRolesNowAndFromScratch(pool);
    expect(now).not.toEqual(scratch);
  });
});
