import { jest } from '@jest/globals';
import type pg from 'pg';
import request from 'supertest';
import { likePattern, likePrefixRange } from '../../src/common/wildcard.js';
import { PreparedStatements, ReportsRepository } from '../../src/reports/reports.repository.js';
import { USERS, type TestApp } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { testPool } from '../helpers/test-database.js';
import { docQuery, LATEST, NUMBER } from './report-fixtures.js';

/**
 * A LIKE with a literal prefix is rendered with the prefix's byte range beside it, so that report
 * statements with LIKE can be prepared and keep a generic plan that still uses the pattern index.
 */
describe('LIKE prefixes as byte ranges', () => {
  let db: pg.Pool;
  beforeAll(() => {
    db = testPool();
  });
  afterAll(() => db.end());

  it('PostgreSQL matches exactly the strings in the range, whatever their characters', async () => {
    const strings = [
      '',
      'a',
      'ab',
      'abc',
      'abd',
      'ab%',
      'ab_x',
      'Ä',
      'Ärger',
      'Ärges',
      'Ärgeř',
      'x😀',
      'x😁',
      'x\uD7FF',
      'x\uE000',
      'x\u{10FFFF}',
      'y',
      'a\\b',
    ];
    const prefixes = ['a', 'ab', 'ab%', 'Ärge', 'x😀', 'x\uD7FF', 'x\u{10FFFF}', 'a\\', 'Ä', 'x'];
    const rows: [string, string, string, string][] = [];
    for (const prefix of prefixes) {
      const pattern = likePattern(prefix, 'names') + '%';
      const range = likePrefixRange(pattern)!;
      expect(range).not.toBeNull();
      for (const s of strings) rows.push([s, pattern, range.lo, range.hi]);
    }
    const { rows: disagree } = await db.query<{ s: string; p: string }>(
      `SELECT s, p FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(s, p, lo, hi)
       WHERE (s LIKE p) IS DISTINCT FROM (s ~>=~ lo AND s ~<~ hi)`,
      [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
    );
    expect(disagree).toEqual([]);
    // The check has teeth: both outcomes occur.
    const { rows: counts } = await db.query<{ matched: number; total: number }>(
      `SELECT count(*) FILTER (WHERE s LIKE p)::int AS matched, count(*)::int AS total FROM unnest($1::text[], $2::text[]) AS t(s, p)`,
      [rows.map((r) => r[0]), rows.map((r) => r[1])],
    );
    expect(counts[0].matched).toBeGreaterThan(10);
    expect(counts[0].matched).toBeLessThan(counts[0].total);
  });

  describe('through the service', () => {
    const prepared = useTestApp({ REPORT_PREPARED_STATEMENTS: '100' });
    const unprepared = useTestApp({ REPORT_PREPARED_STATEMENTS: '0' });

    const BY_PATTERN = docQuery(
      NUMBER,
      `<compositeCondition type="and">${LATEST}<condition><operand><column alias="D">master&gt;number</column></operand><operator type="like"/><operand><parameterTarget name="n"/></operand></condition></compositeCondition>`,
    ).replace('<qml>', '<qml><parameter name="n" type="java.lang.String"/>');
    const run = (t: TestApp, n: string) =>
      request(t.http)
        .post(`/reports?n=${encodeURIComponent(n)}`)
        .auth(...USERS.admin)
        .set('Content-Type', 'text/xml')
        .send(BY_PATTERN);

    it('prepares LIKE reports and answers every pattern as a plan for its value does, past the generic plan', async () => {
      const statements = (prepared.get(ReportsRepository) as unknown as { statements: PreparedStatements }).statements;
      const named = jest.spyOn(statements, 'name');
      try {
        for (const n of ['0000*', '00005*', 'STD-*', 'P-0000000?', '0000000001', 'zzz*', '*1']) {
          const expected = await run(unprepared, n);
          expect(expected.status).toBe(200);
          // More than five runs: PostgreSQL may switch a prepared statement to its generic plan.
          for (let i = 0; i < 7; i++) {
            const got = await run(prepared, n);
            expect([got.status, got.body.items]).toEqual([200, expected.body.items]);
          }
        }
        const answers = await Promise.all(named.mock.results.map((r) => r.value as Promise<{ name?: string }>));
        expect(answers.length).toBeGreaterThan(0);
        expect(answers.every((q) => q.name?.startsWith('report_'))).toBe(true);
      } finally {
        named.mockRestore();
      }
      const some = await run(unprepared, '0000*');
      expect(some.body.count).toBeGreaterThan(2);
    });
  });
});
