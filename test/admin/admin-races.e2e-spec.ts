import pg from 'pg';
import request from 'supertest';
import { CONTENT_ROLES_MAX } from '../../src/admin/workspaces.repository.js';
import { hashPassword } from '../../src/auth/password.js';
import { interleave } from '../helpers/interleave.js';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Limits of administration checked by counting, with the count and the write forced apart. On a
 * database of its own: the demo admin loses the flag here, and many content roles are added.
 *
 * The last two enabled administrators each disable the other at the same time, forced to
 * interleave: a connection of the test holds the users table in SHARE mode, which lets both
 * requests lock their target row and count the other administrators, but not write. Only
 * because the count is taken under a transaction-long advisory lock does the second request wait
 * for the first and then see it has disabled its caller's peer; without it both count one other
 * enabled administrator, both writes go through once the table is let go, and nobody can
 * administer the service any more.
 */
describe('administration limits under concurrent requests', () => {
  let db: ScratchDatabase;
  let t: TestApp;
  let pool: pg.Pool;

  beforeAll(async () => {
    db = await scratchDatabase({ demo: true });
    t = await createTestApp({ DATABASE_URL: db.url });
    // One listening server: requests running at the same time must not each start and stop their own.
    await t.app.listen(0, '127.0.0.1');
    pool = new pg.Pool({ connectionString: db.url, max: 3 });
    await pool.query('UPDATE users SET admin = false');
    for (const name of ['race-1', 'race-2']) {
      await pool.query('INSERT INTO users (name, password_hash, admin) VALUES ($1, $2, true)', [
        name,
        await hashPassword(`${name}-pw`),
      ]);
    }
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await t?.close();
    await db?.drop();
  });

  it('leaves one of them an enabled administrator', async () => {
    const [a, b] = await interleave(
      pool,
      'LOCK TABLE users IN SHARE MODE',
      () => request(t.http).patch('/admin/users/race-2').auth('race-1', 'race-1-pw').send({ disabled: true }),
      () => request(t.http).patch('/admin/users/race-1').auth('race-2', 'race-2-pw').send({ disabled: true }),
    );
    expect([a.status, b.status]).toEqual([200, 409]);
    expect(b.body.message).toBe(
      "disabled: 'race-1' is the last enabled administrator; make another user administrator first",
    );
    const { rows } = await pool.query('SELECT name FROM users WHERE admin AND NOT disabled');
    expect(rows).toEqual([{ name: 'race-1' }]);
  });

  /**
   * Two new content roles when one more is allowed (CONTENT_ROLES_MAX): the test holds
   * content_roles in SHARE mode, so both requests can count but not insert. Under the advisory
   * lock the second counts after the first has inserted and is refused; without it both count
   * one below the limit and both roles are stored.
   */
  it('never stores more content roles than the limit', async () => {
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM content_roles');
    for (let i = rows[0].n; i < CONTENT_ROLES_MAX - 1; i++) {
      await pool.query('INSERT INTO content_roles (name) VALUES ($1)', [`RACE_FILL_${i}`]);
    }
    const answers = await interleave(
      pool,
      'LOCK TABLE content_roles IN SHARE MODE',
      () => request(t.http).post('/admin/content-roles').auth('race-1', 'race-1-pw').send({ name: 'RACE_A' }),
      () => request(t.http).post('/admin/content-roles').auth('race-1', 'race-1-pw').send({ name: 'RACE_B' }),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const count = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM content_roles');
    expect(count.rows[0].n).toBe(CONTENT_ROLES_MAX);
  });
});
