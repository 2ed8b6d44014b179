import type pg from 'pg';
import request from 'supertest';
import { USERS, type TestApp } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { cond, docQuery, NUMBER } from './report-fixtures.js';

const PREFIX = `functions-spec-${process.pid}`;
const Q = '/qml/statement/query';

const post = (t: TestApp, body: string) =>
  request(t.http)
    .post('/reports')
    .auth(...USERS.alice)
    .set('Content-Type', 'text/xml')
    .send(body);

const f = (name: string, heading: string, ...args: string[]) =>
  `<function name="${name}" heading="${heading}">${args.join('')}</function>`;
const k = (text: string | number) => `<constant>${text}</constant>`;
const col = (path: string) => `<column alias="D">${path}</column>`;
const ITERATION = col('iterationInfo.identifier.iterationId');
const CREATED = col('thePersistInfo.createStamp');

/**
 * The functions over HTTP: a wrong argument is a 400 naming the function and the argument, a
 * zero divisor a null, a value the database refuses a 400 (never a 500), and each function's
 * result type reaches the headings. docs/examples run every function against the demo data
 * (test/docs/qml-examples.e2e-spec.ts).
 */
describe('report functions over HTTP', () => {
  let db: pg.Pool;
  const t = useTestApp();
  beforeAll(() => {
    db = testPool();
  });
  afterAll(async () => {
    await db.query('DELETE FROM report_templates WHERE name LIKE $1', [`${PREFIX}%`]);
    await db.end();
  });

  it.each([
    [
      'a format with an element Oracle has not',
      f('TO_CHAR', 'T', CREATED, k('YYYY-XX')),
      `${Q}/select/function[1]/constant[1]: TO_CHAR needs a date format as argument 2: unknown element at "XX" (position 6)`,
    ],
    [
      'text where a number belongs',
      f('ROUND', 'R', col('master>name'), k(2)),
      `${Q}/select/function[1]/column[1]: ROUND needs a number as argument 1, not a string`,
    ],
    [
      'a constant that is no number',
      f('DIVIDE', 'D', ITERATION, k('zero')),
      `${Q}/select/function[1]/constant[1]: DIVIDE needs a number as argument 2, not "zero"`,
    ],
    [
      'a wrong number of arguments',
      f('ADD_MONTHS', 'A', CREATED),
      `${Q}/select/function[1]: ADD_MONTHS takes 2 argument(s), found 1`,
    ],
  ])('answers %s with 400 naming the function and the argument', async (_what, select, message) => {
    const res = await post(t, docQuery(select));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message });
  });

  it('gives null, not an error, for a zero divisor and the square root of a negative number', async () => {
    const res = await post(
      t,
      docQuery(
        NUMBER +
          f('DIVIDE', 'Quotient', ITERATION, k(0)) +
          f('MOD', 'Remainder', ITERATION, k(0)) +
          f('SQRT', 'Root', f('SUBTRACT', 'Negative', k(0), ITERATION)) +
          f('DIVIDE', 'Half', ITERATION, k(2)),
        cond('master>number', 'equal', '0000000003'),
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([['0000000003', null, null, null, 0.5]]);
  });

  it('answers 400, not 500, when the database refuses a value of a row', async () => {
    // "Drive unit specification" is no year: PostgreSQL refuses it while reading the rows.
    const res = await post(t, docQuery(f('TO_DATE', 'Year', col('master>name'), k('YYYY'))));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.message).toMatch(/^the report query failed on its values: .*"YYYY"/);
  });

  it('types each result in the headings of JSON and CSV', async () => {
    const qml = docQuery(
      NUMBER +
        f('TO_CHAR', 'Created', CREATED, k('DD Mon YYYY')) +
        f('DIVIDE', 'Half', ITERATION, k(2)) +
        f('ADD_MONTHS', 'Review', CREATED, k(3)) +
        f('LENGTH', 'Length', col('master>name')) +
        f('TO_NUMBER', 'Short', f('SUBSTR', 'S', col('master>number'), k(-3))),
      cond('master>number', 'equal', '0000000901'),
    );
    const url = `/reports/${encodeURIComponent(`${PREFIX} typed`)}`;
    const put = await request(t.http)
      .put(`${url}?container=Standard%20Parts`)
      .auth(...USERS.carol)
      .set('Content-Type', 'text/xml')
      .send(qml);
    expect(put.status).toBe(201);
    const json = await request(t.http)
      .get(`${url}?format=json`)
      .auth(...USERS.carol);
    expect(json.status).toBe(200);
    expect(json.body.headings.map((h: { type: string }) => h.type)).toEqual([
      'java.lang.String',
      'java.lang.String',
      'java.lang.Double',
      'java.sql.Timestamp',
      'java.lang.Long',
      'java.lang.Double',
    ]);
    expect(json.body.items).toEqual([['0000000901', '02 Mar 2026', 0.5, '2026-06-02T10:00:00.000Z', 27, 901]]);
    const csv = await request(t.http)
      .get(`${url}?format=csv`)
      .auth(...USERS.carol);
    expect(csv.status).toBe(200);
    expect(csv.text.split(/\r\n/).slice(0, 2)).toEqual([
      'Number,Created,Half,Review,Length,Short',
      '0000000901,02 Mar 2026,0.5,2026-06-02T10:00:00.000Z,27,901',
    ]);
  });
});
