import type pg from 'pg';
import request from 'supertest';
import { makeUsers } from '../groups/groups-fixtures.js';
import { testPool } from '../helpers/test-database.js';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { docQuery, LATEST, NUMBER } from './report-fixtures.js';

/**
 * The SQL of a template is kept per parameter shape: one template run again with other values
 * and by other users answers as a template never run before does (another inline text: compiled
 * and planned afresh).
 */
describe('reports: SQL kept per template and parameter shape', () => {
  const app = useTestApp();

  const TEMPLATE = docQuery(
    `${NUMBER}<constant heading="Me" isMacro="true">CURRENT_USER_NAME</constant>`,
    `<compositeCondition type="and">${LATEST}<condition><operand><column alias="D">master&gt;number</column></operand><operator type="like"/><operand><parameterTarget name="n"/></operand></condition></compositeCondition>`,
  ).replace('<qml>', '<qml><parameter name="n" type="java.lang.String"/>');
  const run = (user: keyof typeof USERS, n: string, qml: string) => {
    const [name, password] = USERS[user] as readonly [string, string];
    return request(app.http)
      .post(`/reports?n=${encodeURIComponent(n)}`)
      .auth(name, password)
      .set('Content-Type', 'text/xml')
      .send(qml);
  };

  it('answers each value and user as a fresh plan does', async () => {
    const runs: [keyof typeof USERS, string][] = [
      ['alice', '0000*'],
      ['alice', '00000000*'],
      ['bob', '0000*'],
      ['admin', '0000*'],
      ['alice', 'STD-*'],
      ['alice', '*1'],
      ['carol', '*1'],
      ['alice', '0000*'],
    ];
    const counts = new Set<number>();
    for (const [i, [user, n]] of runs.entries()) {
      const got = await run(user, n, TEMPLATE);
      const fresh = await run(user, n, `${TEMPLATE}<!-- ${i} -->`);
      expect(fresh.status).toBe(200);
      expect([got.status, got.body.items, got.body.count]).toEqual([200, fresh.body.items, fresh.body.count]);
      expect(got.body.items.every((row: unknown[]) => row[1] === USERS[user][0])).toBe(true);
      counts.add(got.body.count as number);
    }
    // The values matter: the answers differ between them.
    expect(counts.size).toBeGreaterThan(2);
  });
});

/**
 * The same with rights that come from groups only: a user in a group nested in another, the
 * outer group given alice's roles, answers as alice does (the compiled SQL reads the caller's
 * access roles, whichever way they were granted), and a role taken from the group is gone at
 * the next run of the cached statement.
 */
describe('reports: SQL kept per template and parameter shape, with rights through groups', () => {
  const app = useTestApp();
  let pool: pg.Pool;
  let grouped: [string, string];

  const TEMPLATE = docQuery(
    `${NUMBER}<constant heading="Me" isMacro="true">CURRENT_USER_NAME</constant>`,
    `<compositeCondition type="and">${LATEST}<condition><operand><column alias="D">master&gt;number</column></operand><operator type="like"/><operand><parameterTarget name="n"/></operand></condition></compositeCondition>`,
  ).replace('<qml>', '<qml><parameter name="n" type="java.lang.String"/>');
  const run = (who: readonly [string, string], n: string, qml: string) =>
    request(app.http)
      .post(`/reports?n=${encodeURIComponent(n)}`)
      .auth(...who)
      .set('Content-Type', 'text/xml')
      .send(qml);
  const withoutMe = (rows: unknown[][]) => rows.map((r) => [r[0], ...r.slice(2)]);

  beforeAll(async () => {
    pool = testPool();
    await pool.query("DELETE FROM groups WHERE name IN ('Rep G Outer', 'Rep G Inner')");
    grouped = (await makeUsers(pool, ['rep-grouped']))['rep-grouped'];
    const { rows } = await pool.query<{ id: number }>(
      "INSERT INTO groups (name) VALUES ('Rep G Outer'), ('Rep G Inner') RETURNING id",
    );
    const [outer, inner] = rows.map((r) => r.id);
    await pool.query('INSERT INTO group_groups (group_id, member_group_id) VALUES ($1, $2)', [outer, inner]);
    await pool.query(
      "INSERT INTO group_users (group_id, user_id) SELECT $1, id FROM users WHERE name = 'rep-grouped'",
      [inner],
    );
    await pool.query(
      `INSERT INTO group_memberships (container_id, group_id, role)
       SELECT m.container_id, $1, m.role FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.name = 'alice'`,
      [outer],
    );
  });

  afterAll(async () => {
    await pool.query("DELETE FROM groups WHERE name IN ('Rep G Outer', 'Rep G Inner')");
    await pool.query("DELETE FROM users WHERE name = 'rep-grouped'");
    await pool.end();
  });

  it('answers a user with group rights as alice, cached or fresh, and sees a revoked role at once', async () => {
    const counts = new Set<number>();
    for (const [i, n] of ['0000*', '00000000*', 'STD-*', '*1', '0000*'].entries()) {
      const got = await run(grouped, n, TEMPLATE);
      const fresh = await run(grouped, n, `${TEMPLATE}<!-- g${i} -->`);
      const alice = await run(USERS.alice, n, TEMPLATE);
      expect([got.status, fresh.status, alice.status]).toEqual([200, 200, 200]);
      expect([got.body.items, got.body.count]).toEqual([fresh.body.items, fresh.body.count]);
      expect([withoutMe(got.body.items), got.body.count]).toEqual([withoutMe(alice.body.items), alice.body.count]);
      expect(got.body.items.every((row: unknown[]) => row[1] === 'rep-grouped')).toBe(true);
      counts.add(got.body.count as number);
    }
    expect(counts.size).toBeGreaterThan(2);

    const before = await run(grouped, '*', TEMPLATE);
    expect(before.body.count).toBeGreaterThan(0);
    await pool.query(
      "DELETE FROM group_memberships WHERE group_id = (SELECT id FROM groups WHERE name = 'Rep G Outer')",
    );
    const after = await run(grouped, '*', TEMPLATE);
    expect([after.status, after.body.count, after.body.items]).toEqual([200, 0, []]);
  });
});
