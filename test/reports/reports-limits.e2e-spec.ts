import request from 'supertest';
import { USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { PrismaService } from '../../src/prisma/prisma.service.js';
import { ReportsRepository } from '../../src/reports/reports.repository.js';
import { demoQml, docQuery, LATEST, NUMBER } from './report-fixtures.js';
import { parseStrictXml } from './xml-well-formed.js';

/** Seven iteration tables in a cross product: hundreds of millions of rows to count, seconds of work. */
const SLOW = `<qml><statement><query>
  <select><function name="COUNT" heading="N"/></select>
  <from>${['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((a) => `<table alias="${a}">wt.enterprise.RevisionControlled</table>`).join('')}</from>
</query></statement></qml>`;

/** Posts SLOW as admin and expects the 504 that names REPORT_TIMEOUT_MS (200 ms in these apps). */
async function expectTimeout(t: TestApp): Promise<void> {
  const res = await request(t.http)
    .post('/reports')
    .auth(...USERS.admin)
    .set('Content-Type', 'text/xml')
    .send(SLOW);
  expect(res.status).toBe(504);
  expect(res.body).toMatchObject({
    statusCode: 504,
    message: 'the report query ran longer than REPORT_TIMEOUT_MS (200 ms) and was cancelled',
  });
}

/** A slot of a user id no demo user has. */
const SLOT = { userId: 999_999, max: 1 };

/** A statement that would write is refused by PostgreSQL as in a read-only transaction. */
async function expectReadOnly(t: TestApp): Promise<void> {
  await expect(
    t.app.get(ReportsRepository).execute(Prisma.sql`UPDATE users SET name = name WHERE false`, SLOT),
  ).rejects.toMatchObject({ code: '25006' });
}

describe('report limits', () => {
  const t = useTestApp({ REPORT_MAX_ROWS: '2', REPORT_TIMEOUT_MS: '200' });

  it('cuts results at REPORT_MAX_ROWS and says so in JSON', async () => {
    const res = await request(t.http)
      .post('/reports')
      .auth(...USERS.alice)
      .set('Content-Type', 'text/xml')
      .send(demoQml('Part structure'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      count: 2,
      items: [
        ['P-00000001', 'P-00000002', 'Housing', 1, 10],
        ['P-00000001', 'STD-000001', 'M6 bolt', 4, 20],
      ],
      truncated: true,
      _runtime: expect.any(Number),
    });
    const named = await request(t.http)
      .get('/reports/Part%20structure?format=json')
      .auth(...USERS.alice);
    expect(named.body).toMatchObject({ count: 2, truncated: true });
  });

  it('says so in XML with a truncated dataItem', async () => {
    const res = await request(t.http)
      .get('/reports/Part%20structure')
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(parseStrictXml(res.text).root).toBe('queryResult');
    expect(res.text).toContain('<auxData><dataItem name="truncated">true</dataItem></auxData>');
    expect(res.text.match(/<row /g)).toHaveLength(2);
  });

  it('does not mark a result that fits', async () => {
    const res = await request(t.http)
      .get('/reports/Released%20parts?format=json&state=INWORK')
      .auth(...USERS.alice);
    expect(res.body.count).toBe(1);
    expect(res.body).not.toHaveProperty('truncated');
  });

  it('marks a result truncated exactly when it has more than REPORT_MAX_ROWS rows', async () => {
    // Latest documents by number: N rows for N numbers (REPORT_MAX_ROWS is 2 here).
    const numbers = (list: string) =>
      docQuery(
        NUMBER,
        `<compositeCondition>${LATEST}<condition><operand>${NUMBER}</operand><inOperator type="in"/><inOperand><delimitedList><constant>${list}</constant></delimitedList></inOperand></condition></compositeCondition>`,
        '<orderBy><orderByItem><columnTarget heading="Number"/></orderByItem></orderBy>',
      );
    const run = (list: string) =>
      request(t.http)
        .post('/reports')
        .auth(...USERS.alice)
        .set('Content-Type', 'text/xml')
        .send(numbers(list));
    expect((await run('0000000001')).body).toEqual({ count: 1, items: [['0000000001']], _runtime: expect.any(Number) });
    const exactly = await run('0000000001,0000000002');
    expect(exactly.status).toBe(200);
    expect(exactly.body).toEqual({
      count: 2,
      items: [['0000000001'], ['0000000002']],
      _runtime: expect.any(Number),
    });
    const oneMore = await run('0000000001,0000000002,0000000003');
    expect(oneMore.status).toBe(200);
    expect(oneMore.body).toEqual({
      count: 2,
      items: [['0000000001'], ['0000000002']],
      truncated: true,
      _runtime: expect.any(Number),
    });
  });

  it('cancels a query past REPORT_TIMEOUT_MS with 504', async () => {
    const started = Date.now();
    await expectTimeout(t);
    expect(Date.now() - started).toBeLessThan(5000);
    // Cancelled in PostgreSQL, not abandoned: the statement no longer runs there.
    const db = testPool();
    try {
      const running = await db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%CROSS JOIN "iterations" "t7"%' AND pid <> pg_backend_pid()`,
      );
      expect(running.rows).toEqual([{ n: 0 }]);
    } finally {
      await db.end();
    }
    const after = await request(t.http)
      .post('/reports')
      .auth(...USERS.alice)
      .set('Content-Type', 'text/xml')
      .send(demoQml('Files per state'));
    expect(after.status).toBe(200);
  });

  it('runs report statements on read-only connections', async () => {
    await expectReadOnly(t);
    expect(await t.app.get(ReportsRepository).execute(Prisma.sql`SELECT 1::int`, SLOT)).toEqual([[1]]);
  });
});

/** With a pool of one connection (the embedded database), reports share it in a read-only transaction. */
describe('report limits on a single shared connection', () => {
  const t = useTestApp({ DB_POOL_MAX: '1', REPORT_MAX_ROWS: '2', REPORT_TIMEOUT_MS: '200' });

  it('cancels a query past REPORT_TIMEOUT_MS with 504 and goes on serving', async () => {
    await expectTimeout(t);
    const after = await request(t.http)
      .get('/reports/Part%20structure?format=json')
      .auth(...USERS.alice);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ count: 2, truncated: true });
  });

  it('runs report statements read-only', async () => {
    await expectReadOnly(t);
    // The timeout was local to the report's transaction: the shared connection keeps its own.
    const timeout = await t.app.get(PrismaService).pgPool.query('SHOW statement_timeout');
    expect(timeout.rows).toEqual([{ statement_timeout: '30s' }]);
  });
});
