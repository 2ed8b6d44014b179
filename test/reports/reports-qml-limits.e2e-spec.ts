import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { expectError } from '../security/security-helpers.js';
import { docQuery, NUMBER } from './report-fixtures.js';

const PREFIX = `qml-limits-spec-${process.pid}`;
const url = (name: string) => `/reports/${encodeURIComponent(`${PREFIX} ${name}`)}`;

const columns = (n: number) =>
  Array.from({ length: n }, (_, i) => `<column alias="D" heading="H${i}">number</column>`).join('');
const tables = (n: number) =>
  `<from>${Array.from({ length: n }, (_, i) => `<table alias="T${i}">wt.doc.WTDocument</table>`).join('')}</from>`;
const inList = (list: string) =>
  `<condition><operand><column alias="D">name</column></operand><inOperator type="in"/><inOperand><delimitedList>${list}</delimitedList></inOperand></condition>`;
const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`).join(',');
const nested = (n: number) =>
  `${'<compositeCondition type="or">'.repeat(n)}${inList('<constant>x</constant>')}${'</compositeCondition>'.repeat(n)}`;

/** The reproducers of the issue (each a 500 or a 30 s+ planning run before) and the 400 each gets now. */
const CASES: [string, string, string][] = [
  [
    '1664 select items',
    docQuery(columns(1664)),
    '/qml/statement/query/select: 1664 items, more than the limit of 1000 (REPORT_MAX_SELECT_ITEMS)',
  ],
  [
    '5000 tables',
    docQuery(NUMBER).replace(/<from>.*<\/from>/, tables(5000)),
    '/qml/statement/query/from: 5000 tables, more than the limit of 100 (REPORT_MAX_TABLES)',
  ],
  [
    '1200 tables',
    docQuery(NUMBER).replace(/<from>.*<\/from>/, tables(1200)),
    '/qml/statement/query/from: 1200 tables, more than the limit of 100 (REPORT_MAX_TABLES)',
  ],
  [
    'an in-list of 70 000 values',
    docQuery(NUMBER, inList(`<constant>${values(70_000)}</constant>`)),
    '/qml/statement/query/where/condition[1]/inOperand: the in-lists hold more than 10000 values in all (the limit) (REPORT_MAX_LIST_VALUES)',
  ],
  [
    'conditions nested 33 deep',
    docQuery(NUMBER, nested(33)),
    `/qml/statement/query/where${'/compositeCondition[1]'.repeat(33)}: conditions and functions nest more than 32 levels deep (REPORT_MAX_NESTING)`,
  ],
  [
    'conditions nested 1000 deep',
    docQuery(NUMBER, nested(1000)),
    'elements nest more than 48 levels deep: conditions and functions may nest 32 levels (REPORT_MAX_NESTING)',
  ],
];

describe('QML size limits: 400 naming the limit and its setting', () => {
  const t = useTestApp();

  it.each(CASES)('refuses %s inline and when storing it, storing nothing', async (name, qml, message) => {
    const inline = await request(t.http)
      .post('/reports')
      .auth(...USERS.alice)
      .set('Content-Type', 'text/xml')
      .send(qml);
    expectError(inline, 400, message);
    const stored = await request(t.http)
      .put(`${url(name)}?container=Standard%20Parts`)
      .auth(...USERS.carol)
      .set('Content-Type', 'application/xml')
      .send(qml);
    expectError(stored, 400, message);
    const run = await request(t.http)
      .get(url(name))
      .auth(...USERS.carol);
    expectError(run, 404, `no report template named "${PREFIX} ${name}"`, [name]);
  });

  it('refuses an in-list parameter split into 70 000 values when the stored report runs', async () => {
    const qml = docQuery(NUMBER, inList('<parameterTarget name="numbers"/>')).replace(
      '<qml>',
      '<qml><parameter name="numbers"/>',
    );
    const stored = await request(t.http)
      .put(`${url('list parameter')}?container=Standard%20Parts`)
      .auth(...USERS.carol)
      .set('Content-Type', 'text/xml')
      .send(qml);
    expect(stored.status).toBe(201);
    try {
      const run = await request(t.http)
        .post(`${url('list parameter')}?format=json`)
        .auth(...USERS.carol)
        .type('form')
        .send({ numbers: values(70_000) });
      expectError(
        run,
        400,
        '/qml/statement/query/where/condition[1]: the in-lists hold more than 10000 values in all (the limit) (REPORT_MAX_LIST_VALUES)',
      );
      const small = await request(t.http)
        .post(`${url('list parameter')}?format=json`)
        .auth(...USERS.carol)
        .type('form')
        .send({ numbers: values(10_000) });
      expect(small.status).toBe(200);
      expect(small.body).toMatchObject({ count: 0, items: [] });
    } finally {
      await request(t.http)
        .delete(url('list parameter'))
        .auth(...USERS.carol)
        .expect(204);
    }
  });
});
