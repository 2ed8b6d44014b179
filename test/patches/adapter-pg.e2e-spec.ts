import pg from 'pg';
import { ShadowSafePg } from '../../src/patches/adapter-pg-shadow-database.js';
import { createPgAdapter } from '../../src/prisma/pg-adapter.js';
import { embeddedTestRun, testDatabaseUrl } from '../helpers/test-database.js';

const raw = (sql: string) => ({ sql, args: [], argTypes: [] });

/**
 * The two patches of @prisma/adapter-pg (src/patches/adapter-pg-*.ts) on a real server: what each
 * must do, and what shows that it is still needed on another adapter-pg.
 */
// The embedded database serves one connection at a time and cannot create databases.
(embeddedTestRun() ? describe.skip : describe)('patches of @prisma/adapter-pg', () => {
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: testDatabaseUrl(), application_name: 'pdm-test-admin' });
    await admin.connect();
  });
  afterAll(() => admin.end());

  it('a transaction whose COMMIT fails (its connection was killed) gives its connection back to the pool', async () => {
    const pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 1 });
    pool.on('error', () => undefined);
    const adapter = await createPgAdapter(pool).connect();
    try {
      const tx = await adapter.startTransaction();
      const { rows } = await tx.queryRaw(raw('SELECT pg_backend_pid() AS pid'));
      const pid = Number(rows[0][0]);
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      while ((await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount)
        await new Promise((r) => setTimeout(r, 10));
      await expect(tx.executeRaw(raw('COMMIT'))).rejects.toThrow();
      // Released as broken: pg discarded it, and the pool of one serves the next transaction.
      expect({ total: pool.totalCount, idle: pool.idleCount }).toEqual({ total: 0, idle: 0 });
      const next = await adapter.startTransaction();
      const again = await next.queryRaw(raw('SELECT 1 AS one'));
      expect(again.rows).toEqual([[1]]);
      await next.executeRaw(raw('COMMIT'));
      await next.commit();
      expect({ total: pool.totalCount, idle: pool.idleCount }).toEqual({ total: 1, idle: 1 });
    } finally {
      await adapter.dispose();
      await pool.end();
    }
  });

  it("the CLI's shadow database is created for it and dropped once its pool is closed", async () => {
    const databases = async () =>
      (
        await admin.query<{ name: string }>(
          `SELECT datname AS name FROM pg_database WHERE datname LIKE 'prisma_shadow_%'`,
        )
      ).rows.map((r) => r.name);
    const before = await databases();
    const shadow = await new ShadowSafePg(testDatabaseUrl()).connectToShadowDb();
    const { rows } = await shadow.queryRaw(raw('SELECT current_database()::text'));
    const name = String(rows[0][0]);
    expect(name).toMatch(new RegExp(`^prisma_shadow_${process.pid}_\\d+$`));
    expect((await databases()).filter((d) => !before.includes(d))).toEqual([name]);
    await shadow.dispose();
    expect((await databases()).filter((d) => !before.includes(d))).toEqual([]);
  });
});
