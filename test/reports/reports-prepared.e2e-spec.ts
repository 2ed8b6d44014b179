import pg from 'pg';
import request from 'supertest';
import { PreparedStatements } from '../../src/reports/reports.repository.js';
import { USERS } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { cond, docQuery, LATEST, NUMBER } from './report-fixtures.js';

const prepared = async (client: pg.ClientBase) =>
  (
    await client.query<{ statement: string }>(
      "SELECT statement FROM pg_prepared_statements WHERE name LIKE 'report\\_%' ORDER BY statement",
    )
  ).rows.map((r) => r.statement);

describe('report statements prepared per connection', () => {
  it('keeps at most the configured number per connection, deallocating the least recently used', async () => {
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      const statements = new PreparedStatements(2);
      const run = async (text: string, value: number) =>
        (await client.query<{ v: number }>(await statements.name(client, { text, values: [value] }))).rows[0].v;
      const one = 'SELECT $1::int + 1 AS v';
      const two = 'SELECT $1::int + 2 AS v';
      const three = 'SELECT $1::int + 3 AS v';
      expect(await run(one, 1)).toBe(2);
      expect(await run(two, 1)).toBe(3);
      expect(await prepared(client)).toEqual([one, two]);
      // `one` used again: `two` is now the least recently used and goes when `three` comes.
      expect(await run(one, 10)).toBe(11);
      expect(await run(three, 1)).toBe(4);
      expect(await prepared(client)).toEqual([one, three]);
      // A deallocated statement is prepared again when it is used again.
      expect(await run(two, 5)).toBe(7);
      expect(await prepared(client)).toEqual([two, three]);
    } finally {
      await client.end();
    }
  });

  it('runs statements with LIKE unnamed: a generic plan could not use the pattern for an index range', async () => {
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      const statements = new PreparedStatements(10);
      for (const text of ["SELECT 1 AS v WHERE 'abc' LIKE $1", "SELECT 1 AS v WHERE 'abc' NOT LIKE $1"]) {
        const query = await statements.name(client, { text, values: ['a%'] });
        expect(query).toEqual({ text, values: ['a%'] });
        await client.query(query);
      }
      expect(await prepared(client)).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('prepares nothing when the setting is 0', async () => {
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      const statements = new PreparedStatements(0);
      const query = await statements.name(client, { text: 'SELECT $1::int AS v', values: [1] });
      expect(query).toEqual({ text: 'SELECT $1::int AS v', values: [1] });
      await client.query(query);
      expect(await prepared(client)).toEqual([]);
    } finally {
      await client.end();
    }
  });

  describe('through the service, one statement kept per connection', () => {
    // One statement per connection: every report pushes the other template's statement out.
    const t = useTestApp({ REPORT_PREPARED_STATEMENTS: '1', DB_POOL_MAX: '2' });

    const post = (qml: string, query = '') =>
      request(t.http)
        .post(`/reports${query}`)
        .auth(...USERS.alice)
        .set('Content-Type', 'text/xml')
        .send(qml);

    it('answers the same rows however often templates alternate, for other values and after a failure', async () => {
      const byNumber = docQuery(
        NUMBER,
        `<compositeCondition type="and">${LATEST}<condition><operand><column alias="D">master&gt;number</column></operand><operator type="greaterThanOrEqual"/><operand><parameterTarget name="n"/></operand></condition></compositeCondition>`,
      ).replace('<qml>', '<qml><parameter name="n" type="java.lang.String"/>');
      const latest = docQuery(NUMBER, LATEST);
      const first = await post(byNumber, '?n=0000000');
      expect(first.status).toBe(200);
      expect(first.body.count).toBeGreaterThan(0);
      const all = await post(latest);
      expect(all.status).toBe(200);
      for (let i = 0; i < 3; i++) {
        const a = await post(byNumber, '?n=0000000');
        expect([a.status, a.body.items]).toEqual([200, first.body.items]);
        const b = await post(latest);
        expect([b.status, b.body.items]).toEqual([200, all.body.items]);
      }
      // The same statement with another value binds it, never reuses the last rows.
      const none = await post(byNumber, '?n=~');
      expect([none.status, none.body.count]).toEqual([200, 0]);
      // A value PostgreSQL refuses while running a prepared statement leaves it usable.
      const bad = await post(docQuery(NUMBER, cond('thePersistInfo.createStamp', 'lessThan', '2024-13-45')));
      expect(bad.status).toBe(400);
      const again = await post(byNumber, '?n=0000000');
      expect([again.status, again.body.items]).toEqual([200, first.body.items]);
    });
  });
});
