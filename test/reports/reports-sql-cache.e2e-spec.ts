import request from 'supertest';
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
