import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { parseStrictXml } from './xml-well-formed.js';

const DOCS = `/reports/${encodeURIComponent('Documents by number')}`;

describe('named reports: GET/POST /reports/<name>', () => {
  const t = useTestApp();

  it('returns the queryResult XML by default', async () => {
    const res = await request(t.http)
      .get(`${DOCS}?number=000000000?`)
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const xml = res.text;
    expect(parseStrictXml(xml)).toEqual({ root: 'queryResult', comments: [] });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<queryResult>')).toBe(true);
    expect(xml).toContain('<name>Documents by number</name>');
    expect(xml).toContain(
      '<description>Latest iterations of documents whose number matches the parameter</description>',
    );
    expect(xml).toMatch(/<objectIdentifier>OR:wt\.query\.template\.ReportTemplate:\d+<\/objectIdentifier>/);
    expect(xml).toMatch(
      /<executingPrincipal><fullName>Alice Author<\/fullName><objectIdentifier>OR:wt\.org\.WTUser:\d+<\/objectIdentifier><\/executingPrincipal>/,
    );
    expect(xml).toMatch(/<timeOfExecution>\d{4}-\d\d-\d\dT[\d:.]+Z<\/timeOfExecution>/);
    expect(xml).toContain('<auxData><dataItem name="number">000000000?</dataItem></auxData>');
    expect(xml).toContain('<qml bypassAccessControl="false">');
    expect(xml).not.toContain('<!DOCTYPE');
    expect(xml).toContain('<actualParameter parameterId="number">000000000?</actualParameter>');
    expect(xml).toContain('<heading type="wt.doc.WTDocument" tag="Document">Document</heading>');
    expect(xml).toContain('<heading type="java.sql.Timestamp" tag="Last_Modified">Last Modified</heading>');
    const rows = xml.match(/<row idx="\d+">/g);
    expect(rows).toEqual(['<row idx="1">', '<row idx="2">', '<row idx="3">', '<row idx="4">', '<row idx="5">']);
    expect(xml).toMatch(
      /<row idx="1"><Document>OR:wt\.doc\.WTDocument:\d+<\/Document><Number>0000000001<\/Number><Name>Drive unit specification<\/Name><State>INWORK<\/State><Last_Modified>2026-11-01T08:00:00.000Z<\/Last_Modified><\/row>/,
    );
    expect(xml.trimEnd().endsWith('</result>\n</queryResult>')).toBe(true);
  });

  it('marks null values with isNull and no text', async () => {
    const res = await request(t.http)
      .get(`/reports/${encodeURIComponent('Released parts')}?state=INWORK`)
      .auth(...USERS.bob);
    expect(res.status).toBe(200);
    expect(parseStrictXml(res.text).root).toBe('queryResult');
    expect(res.text).toContain(
      '<row idx="1"><Number>P-00000001</Number><Name>Drive unit</Name><Version>A.1</Version><Context_Name>Drive Unit</Context_Name><Material isNull="true"/></row>',
    );
  });

  it('returns JSON with format=json and with Accept: application/json', async () => {
    const expected = {
      name: 'Part structure',
      headings: [
        { heading: 'Using Number', tag: 'Using_Number', type: 'java.lang.String' },
        { heading: 'Used Number', tag: 'Used_Number', type: 'java.lang.String' },
        { heading: 'Used Name', tag: 'Used_Name', type: 'java.lang.String' },
        { heading: 'Quantity', tag: 'Quantity', type: 'java.lang.Double' },
        { heading: 'Line', tag: 'Line', type: 'java.lang.Long' },
      ],
      count: 3,
      items: [
        ['P-00000001', 'P-00000002', 'Housing', 1, 10],
        ['P-00000001', 'STD-000001', 'M6 bolt', 4, 20],
        ['P-00000001', 'STD-000002', 'M6 nut', 4, 30],
      ],
      _runtime: expect.any(Number),
    };
    const byParam = await request(t.http)
      .get('/reports/Part%20structure?format=json')
      .auth(...USERS.alice);
    expect(byParam.status).toBe(200);
    expect(byParam.body).toEqual(expected);
    const byAccept = await request(t.http)
      .get('/reports/Part%20structure')
      .set('Accept', 'application/json')
      .auth(...USERS.alice);
    expect(byAccept.status).toBe(200);
    expect(byAccept.body).toEqual(expected);
  });

  it('returns RFC 4180 CSV with format=csv and Accept: text/csv', async () => {
    const expected =
      'Number,Name,Version,Context Name,Material\r\nP-00000002,Housing,A.1,Drive Unit,AlSi10Mg\r\nSTD-000001,M6 bolt,A.1,Standard Parts,8.8 steel\r\nSTD-000002,M6 nut,A.1,Standard Parts,8 steel\r\n';
    const res = await request(t.http)
      .get('/reports/Released%20parts?format=csv')
      .auth(...USERS.bob);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.text).toBe(expected);
    const accept = await request(t.http)
      .get('/reports/Released%20parts')
      .set('Accept', 'text/csv')
      .auth(...USERS.bob);
    expect(accept.text).toBe(expected);
  });

  it('quotes CSV fields that need it', async () => {
    const res = await request(t.http)
      .get(`${DOCS}?format=csv&number=0000000004`)
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(res.text.split('\r\n')[1]).toMatch(
      /^OR:wt\.doc\.WTDocument:\d+,0000000004,Cover with 100% recycled steel_v2,INWORK,2026-03-04T16:30:00.000Z$/,
    );
  });

  it('takes parameters as form fields on POST', async () => {
    const res = await request(t.http)
      .post(`${DOCS}?format=json`)
      .auth(...USERS.alice)
      .type('form')
      .send({ number: '0000000002' });
    expect(res.status).toBe(200);
    expect(res.body.items.map((r: unknown[]) => r[1])).toEqual(['0000000002']);
  });

  it('answers 404 for an unknown name and for a template the caller may not read', async () => {
    const res = await request(t.http)
      .get('/reports/No%20such%20report')
      .auth(...USERS.alice);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, message: 'no report template named "No such report"' });
    const carol = await request(t.http)
      .get('/reports/Part%20structure')
      .auth(...USERS.carol);
    expect(carol.status).toBe(404);
    expect(carol.body.message).toBe('no report template named "Part structure"');
  });

  it('answers 400 for an unknown format and 406 for an unacceptable Accept', async () => {
    const bad = await request(t.http)
      .get('/reports/Part%20structure?format=pdf')
      .auth(...USERS.alice);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('format must be xml, json or csv, not "pdf"');
    const twice = await request(t.http)
      .get('/reports/Part%20structure?format=json&format=csv')
      .auth(...USERS.alice);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe('format is given more than once');
    const none = await request(t.http)
      .get('/reports/Part%20structure')
      .set('Accept', 'image/png')
      .auth(...USERS.alice);
    expect(none.status).toBe(406);
  });

  it('answers 400 when a parameter does not convert', async () => {
    const res = await request(t.http)
      .get('/reports/My%20recent%20work?days=soon')
      .auth(...USERS.alice);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      '/qml/statement/query/where/compositeCondition[1]/condition[2]/operand[2]/function[1]/parameterTarget[1]: parameter "days" value "soon" is not a number',
    );
  });
});
