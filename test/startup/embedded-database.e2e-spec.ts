import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { seedDemoData } from '../../src/import/demo-seed.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/prisma/embedded-postgres.js';
import { applyMigrations } from '../../src/prisma/migrate.js';
import { PrismaService } from '../../src/prisma/prisma.service.js';
import { ReportsRepository, type PreparedStatements } from '../../src/reports/reports.repository.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { cond, docQuery, LATEST, NUMBER } from '../reports/report-fixtures.js';

/**
 * The embedded database (PGlite) keeps one session for every connection made to it, so what a
 * connection leaves behind (prepared statements, settings) must not reach the next one. The file
 * service reads through named prepared statements ("files-holder-number"), so these requests
 * failed with "prepared statement … already exists" once the pool had reconnected. Reports run
 * as named prepared statements too (one per connection and template), on the same single
 * connection as everything else here.
 */
describe('the embedded database', () => {
  let dataDir: string;
  let embedded: EmbeddedPostgres;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pdm-embedded-test-'));
    embedded = await startEmbeddedPostgres(dataDir);
    await applyMigrations(embedded.url);
    await seedDemoData(embedded.url);
    // PostgreSQL in WebAssembly: start, migrations and demo data take half a minute on an idle
    // machine, several on a busy one. A deadline, not a measure.
  }, 600_000);

  afterAll(async () => {
    await embedded?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives each new connection a fresh session', async () => {
    const first = new pg.Client({ connectionString: embedded.url });
    await first.connect();
    await first.query({ name: 'left-behind', text: 'SELECT 1' });
    await first.query("SET application_name = 'left-behind'");
    await first.end();

    const second = new pg.Client({ connectionString: embedded.url });
    await second.connect();
    try {
      const statements = await second.query('SELECT name FROM pg_prepared_statements');
      expect(statements.rows).toEqual([]);
      const setting = await second.query('SHOW application_name');
      expect(setting.rows).toEqual([{ application_name: '' }]);
      // The same named statement can be prepared again.
      const again = await second.query({ name: 'left-behind', text: 'SELECT 1 AS one' });
      expect(again.rows).toEqual([{ one: 1 }]);
    } finally {
      await second.end();
    }
  });

  describe('serving the app (pool of one, as `npm start` runs it)', () => {
    let t: TestApp;
    let pool: pg.Pool;
    /** The statement name each report query ran under (undefined: unnamed). */
    const reportStatements: (string | undefined)[] = [];

    beforeAll(async () => {
      t = await createTestApp({
        DATABASE_URL: embedded.url,
        // What main.ts sets for the embedded database, which serves one connection at a time.
        DB_POOL_MAX: '1',
        AUTH_NOTICES: 'false',
        DB_POOL_IDLE_TIMEOUT_MS: '300',
        PUBLIC_URL: 'http://pdm.test',
      });
      pool = t.app.get(PrismaService).pgPool;
      const statements = (t.app.get(ReportsRepository) as unknown as { statements: PreparedStatements }).statements;
      const name = statements.name.bind(statements);
      statements.name = (async (client: pg.ClientBase, query: pg.QueryConfig, genericPlan?: boolean) => {
        const named = await name(client, query, genericPlan);
        reportStatements.push(named.name);
        return named;
      }) as typeof statements.name;
    });
    afterAll(() => t?.close());

    // Requests that run named prepared statements (the file service's holder look-ups).
    const paths = ['/files/0000000001?role=all', '/files/OR:wt.doc.WTDocument:1?role=all'];
    // A report with LIKE: named too, its prefix also given as a byte range (run often enough
    // for PostgreSQL to consider its generic plan).
    const byPrefix = docQuery(
      NUMBER,
      `<compositeCondition type="and">${cond('master&gt;number', 'like', '000000000*')}${LATEST}</compositeCondition>`,
    );
    // A report without LIKE, which runs as a named prepared statement.
    const report = docQuery(
      `${NUMBER}<column alias="D" heading="Name">master&gt;name</column>`,
      `<compositeCondition type="and">${cond('master&gt;number', 'equal', '0000000001')}${LATEST}</compositeCondition>`,
    );

    async function answers(): Promise<{ status: number; body: unknown }[]> {
      const out = [];
      for (const path of paths) {
        const res = await request(t.http)
          .get(path)
          .auth(...USERS.alice);
        const { _runtime, ...body } = res.body as { _runtime?: number };
        out.push({ status: res.status, body });
      }
      const ready = await request(t.http).get('/health/ready');
      out.push({ status: ready.status, body: ready.body as unknown });
      const ran = await request(t.http)
        .post('/reports')
        .auth(...USERS.alice)
        .set('Content-Type', 'text/xml')
        .send(report);
      const { _runtime, ...body } = ran.body as { _runtime?: number };
      out.push({ status: ran.status, body });
      for (let i = 0; i < 3; i++) {
        const like = await request(t.http)
          .post('/reports')
          .auth(...USERS.alice)
          .set('Content-Type', 'text/xml')
          .send(byPrefix);
        const { _runtime: _likeRuntime, ...likeBody } = like.body as { _runtime?: number };
        out.push({ status: like.status, body: likeBody });
      }
      // The reports ran as named statements, on the connection the pool had then.
      expect(reportStatements.splice(0)).toEqual(Array(4).fill(expect.stringMatching(/^report_[0-9a-f]{32}$/)));
      return out;
    }

    /** Until the pool has closed its idle connection (DB_POOL_IDLE_TIMEOUT_MS). */
    async function idleClosed(): Promise<void> {
      while (pool.totalCount > 0) await new Promise((r) => setTimeout(r, 100));
    }

    it('answers the same after the pool closed its idle connection', async () => {
      const before = await answers();
      expect(before.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
      expect(before[4].body).toEqual({ count: expect.any(Number), items: expect.any(Array) });
      expect((before[4].body as { count: number }).count).toBeGreaterThan(1);
      expect(before[5]).toEqual(before[4]);
      expect(before[6]).toEqual(before[4]);
      expect(before[2].body).toEqual({ status: 'ok', database: 'up', migrations: 'applied' });
      expect(before[0].body).toEqual({
        count: expect.any(Number),
        items: expect.arrayContaining([expect.objectContaining({ filename: 'spec.txt', role: 'PRIMARY' })]),
        isCheckedOut: false,
        checkedOutBy: null,
      });
      expect(before[3].body).toEqual({ count: 1, items: [['0000000001', 'Drive unit specification']] });

      await idleClosed();
      expect(await answers()).toEqual(before);
      await idleClosed();
      expect(await answers()).toEqual(before);
    });

    it('counts failed sign-ins in the database (429 past AUTH_FAILURE_LIMIT, the right password too)', async () => {
      const statuses = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await request(t.http).get('/numbers/version').auth('bob', `no-${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      const right = await request(t.http)
        .get('/numbers/version')
        .auth(...USERS.bob);
      expect(right.status).toBe(429);
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(right.headers['retry-after'])).toBeLessThanOrEqual(60);
      // The pair's row and the address's (alice's right sign-ins were given back).
      const { rows } = await pool.query<{ count: number }>('SELECT count FROM auth_failures ORDER BY count');
      expect(rows).toEqual([{ count: 5 }, { count: 5 }]);
    });

    it('answers the same after its connection was dropped and opened again', async () => {
      const before = await answers();
      expect(before.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);

      // The pool discards a connection released with an error and opens a new one.
      const client = await pool.connect();
      client.release(new Error('connection dropped by the test'));
      expect(await answers()).toEqual(before);
    });
  });
});
