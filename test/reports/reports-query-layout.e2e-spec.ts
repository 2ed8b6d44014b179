import { readFileSync } from 'node:fs';
import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';

const PREFIX = `query-layout-spec-${process.pid}`;
const url = (name: string) => `/reports/${encodeURIComponent(`${PREFIX} ${name}`)}`;
const example = (name: string) => readFileSync(`docs/examples/${name}.qml`, 'utf8');
const SEARCH = example('query-layout-document-search');

/**
 * Templates in the qml/query layout (Windchill 10 and later) through the service: stored with
 * PUT, described, run by name and inline with their report attributes as request parameters,
 * giving the rows of the same query in the statement layout; errors name their elements.
 */
describe('the qml/query layout through the reports service', () => {
  let db: pg.Pool;
  const t = useTestApp();
  beforeAll(async () => {
    db = testPool();
  });
  afterAll(async () => {
    await db.query('DELETE FROM report_templates WHERE name LIKE $1', [`${PREFIX}%`]);
    await db.end();
  });

  const put = (name: string, qml: string) =>
    request(t.http)
      .put(`${url(name)}?container=Standard%20Parts`)
      .auth(...USERS.carol)
      .set('Content-Type', 'text/xml')
      .send(qml);
  const inline = (qml: string, query: Record<string, string> = {}, user: readonly [string, string] = USERS.alice) =>
    request(t.http)
      .post('/reports')
      .query(query)
      .auth(...user)
      .set('Content-Type', 'text/xml')
      .send(qml);

  it('stores a template with PUT, says its layout and lists its report attributes', async () => {
    const res = await put('search', SEARCH);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: `${PREFIX} search`,
      layout: 'query',
      parameters: [{ name: 'Text', type: 'java.lang.String', default: null, isMacro: false }],
      headings: [
        { heading: 'Number', tag: 'Number', type: 'java.lang.String' },
        { heading: 'Name', tag: 'Name', type: 'java.lang.String' },
        { heading: 'State', tag: 'State', type: 'java.lang.String' },
      ],
      qml: SEARCH,
    });
    const attr = (
      id: string,
      column: boolean,
      input: boolean,
      userCanConstrain: boolean,
      constantValue: string | null,
    ) => ({
      id,
      heading: id,
      column,
      input,
      userCanConstrain,
      defaultValue: null,
      constantValue,
      isMacro: false,
    });
    expect(res.body.reportAttributes).toEqual([
      attr('Number', true, false, true, null),
      attr('Name', true, false, true, null),
      attr('State', true, false, true, null),
      attr('Latest', false, false, false, 'true'),
      attr('Text', false, true, true, null),
    ]);
    const details = await request(t.http)
      .get(`/reports/api/1.0/templates/${encodeURIComponent(res.body.oid)}`)
      .auth(...USERS.alice);
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({ layout: 'query', reportAttributes: res.body.reportAttributes });

    const statement = await request(t.http)
      .get('/reports')
      .query({ name: 'Part structure' })
      .auth(...USERS.alice);
    const partStructure = await request(t.http)
      .get(`/reports/api/1.0/templates/${encodeURIComponent(statement.body.items[0].oid)}`)
      .auth(...USERS.alice);
    expect(partStructure.body).toMatchObject({ layout: 'statement', reportAttributes: [] });
  });

  it('runs a stored template by name: attributes constrain by id and by heading, inputs fill conditions', async () => {
    expect((await put('run', SEARCH)).status).toBe(201);
    const run = (query: Record<string, string>) =>
      request(t.http)
        .get(url('run'))
        .query({ format: 'json', ...query })
        .auth(...USERS.alice);
    const all = await run({});
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(6);
    const byState = await run({ State: 'underreview' });
    expect(byState.status).toBe(200);
    expect(byState.body.items).toEqual([['0000000002', 'Test plan', 'UNDERREVIEW']]);
    const byPattern = await run({ Number: '00000000?4' });
    expect(byPattern.body.items).toEqual([['0000000004', 'Cover with 100% recycled steel_v2', 'INWORK']]);
    const byText = await run({ Text: '*manual*', State: 'INWORK' });
    expect(byText.body.items).toEqual([['0000000003', 'Maintenance manual', 'INWORK']]);
    // The constantValue of Latest cannot be lifted: only latest iterations, one row per document.
    const latest = await run({ Latest: 'false', Number: '0000000001' });
    expect(latest.body.items).toEqual([['0000000001', 'Drive unit specification', 'INWORK']]);
    const csv = await request(t.http)
      .get(url('run'))
      .query({ format: 'csv', Name: 'Test plan' })
      .auth(...USERS.alice);
    expect(csv.status).toBe(200);
    expect(csv.text).toBe('Number,Name,State\r\n0000000002,Test plan,UNDERREVIEW\r\n');
  });

  it('gives the rows of the same query in the statement layout', async () => {
    for (const [statement, queryLayout, user] of [
      ['part-structure', 'query-layout-part-structure', USERS.alice],
      ['parts-without-structure', 'query-layout-parts-without-structure', USERS.bob],
    ] as const) {
      const a = await inline(example(statement), {}, user);
      const b = await inline(example(queryLayout), {}, user);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.body.items).toEqual(a.body.items);
      expect(b.body.count).toBeGreaterThan(0);
    }
  });

  it('answers 400 naming the element, and stores nothing', async () => {
    const script = SEARCH.replace(
      '<column alias="Document" type="java.lang.String" propertyName="name">master&gt;name</column>',
      '<script className="com.acme.ReportHelper" name="display" type=""><column alias="Document">name</column></script>',
    );
    const res = await put('script', script);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      message:
        '/qml/query/selectOrConstrain/reportAttribute[2]/script[1]: scripts (Java callbacks such as com.acme.ReportHelper) never run here: remove the script element, or select its arguments as columns',
    });
    const unknown = await put('unknown', SEARCH.replace('state.state', 'state.nonsense'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(
      '/qml/query/selectOrConstrain/reportAttribute[3]/column[1]: unknown property "state.nonsense" of wt.doc.WTDocument',
    );
    const rows = await db.query('SELECT name FROM report_templates WHERE name = ANY($1)', [
      [`${PREFIX} script`, `${PREFIX} unknown`],
    ]);
    expect(rows.rowCount).toBe(0);
    const value = await inline(SEARCH, { Number: '1' });
    expect(value.status).toBe(200);
    const bad = await inline(
      example('query-layout-part-structure').replace('<column alias="link"', '<column alias="nolink"'),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      '/qml/query/selectOrConstrain/reportAttribute[4]/column[1]: alias "nolink" is not declared in from',
    );
  });

  it('refuses a value that does not fit the attribute type with 400', async () => {
    const qml = SEARCH.replace(
      '<reportAttribute heading="Text"',
      '<reportAttribute heading="Iteration" reportAttributeId="Iteration" userCanSelect="false" userCanConstrain="true"><column alias="Document">iterationInfo.identifier.iterationId</column></reportAttribute><reportAttribute heading="Text"',
    );
    const ok = await inline(qml, { Iteration: '1', Number: '0000000002' });
    expect(ok.status).toBe(200);
    expect(ok.body.items).toEqual([['0000000002', 'Test plan', 'UNDERREVIEW']]);
    const res = await inline(qml, { Iteration: 'one' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('/qml/query/selectOrConstrain/reportAttribute[5]: value "one" is not a number');
  });
});
