import request from 'supertest';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { parseStrictXml } from './xml-well-formed.js';

const PREFIX = `csv-spec-${process.pid}`;

/** One part, with text that spreadsheets would run and numbers that are negative. */
const QML = `<qml><statement><query>
<select>
  <column alias="P" heading="Number">master&gt;number</column>
  <constant heading="Formula">=HYPERLINK("http://attacker.example/","click")</constant>
  <constant heading="@Note">@SUM(1+1)</constant>
  <constant heading="Text">-5</constant>
  <constant heading="Long" type="java.lang.Long">-5</constant>
  <constant heading="Double" type="java.lang.Double">-0.5</constant>
</select>
<from><table alias="P">wt.part.WTPart</table></from>
<where><compositeCondition>
  <condition><operand><column alias="P">master&gt;number</column></operand><operator type="equal"/><operand><constant>STD-000001</constant></operand></condition>
  <condition><operand><column alias="P">iterationInfo.latest</column></operand><operator type="equal"/><operand><constant>1</constant></operand></condition>
</compositeCondition></where>
</query></statement></qml>`;

describe('CSV_NEUTRALIZE_FORMULAS', () => {
  let on: TestApp;
  let off: TestApp;
  const url = `/reports/${encodeURIComponent(`${PREFIX} formulas`)}`;
  beforeAll(async () => {
    on = await createTestApp();
    off = await createTestApp({ CSV_NEUTRALIZE_FORMULAS: 'false' });
    const put = await request(on.http)
      .put(`${url}?container=Standard%20Parts`)
      .auth(...USERS.carol)
      .set('Content-Type', 'text/xml')
      .send(QML);
    expect(put.status).toBe(201);
  });
  afterAll(async () => {
    await request(on.http)
      .delete(url)
      .auth(...USERS.carol);
    await on.close();
    await off.close();
  });

  it("prefixes text cells that start like a formula with ' by default; numbers stay numbers", async () => {
    const res = await request(on.http)
      .get(`${url}?format=csv`)
      .auth(...USERS.bob);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.text).toBe(
      `Number,Formula,'@Note,Text,Long,Double\r\nSTD-000001,"'=HYPERLINK(""http://attacker.example/"",""click"")",'@SUM(1+1),'-5,-5,-0.5\r\n`,
    );
  });

  it('writes cells as they are with CSV_NEUTRALIZE_FORMULAS=false', async () => {
    const res = await request(off.http)
      .get(`${url}?format=csv`)
      .auth(...USERS.bob);
    expect(res.status).toBe(200);
    expect(res.text).toBe(
      `Number,Formula,@Note,Text,Long,Double\r\nSTD-000001,"=HYPERLINK(""http://attacker.example/"",""click"")",@SUM(1+1),-5,-5,-0.5\r\n`,
    );
  });

  it('leaves JSON as it is', async () => {
    const json = await request(on.http)
      .get(`${url}?format=json`)
      .auth(...USERS.bob);
    expect(json.body.items).toEqual([
      ['STD-000001', '=HYPERLINK("http://attacker.example/","click")', '@SUM(1+1)', '-5', -5, -0.5],
    ]);
  });
});

/** Every combination of five latest documents: thousands of rows, several chunks of output. */
const ALIASES = ['A', 'B', 'C', 'D', 'E'];
const CROSS_QML = `<qml><statement><query>
<select>
  ${ALIASES.map((a) => `<column alias="${a}" heading="${a}">master&gt;number</column>`).join('\n  ')}
  <constant heading="Formula">=1+1</constant>
</select>
<from>${ALIASES.map((a) => `<table alias="${a}">wt.doc.WTDocument</table>`).join('')}</from>
<where><compositeCondition>
  ${ALIASES.map((a) => `<condition><operand><column alias="${a}">iterationInfo.latest</column></operand><operator type="equal"/><operand><constant>1</constant></operand></condition>`).join('\n  ')}
</compositeCondition></where>
</query></statement></qml>`;

describe('long CSV and XML results', () => {
  let t: TestApp;
  const url = `/reports/${encodeURIComponent(`${PREFIX} cross`)}`;
  beforeAll(async () => {
    t = await createTestApp();
    const put = await request(t.http)
      .put(`${url}?container=Standard%20Parts`)
      .auth(...USERS.carol)
      .set('Content-Type', 'text/xml')
      .send(CROSS_QML);
    expect(put.status).toBe(201);
  });
  afterAll(async () => {
    await request(t.http)
      .delete(url)
      .auth(...USERS.carol);
    await t.close();
  });

  it('are written to the response a chunk of rows at a time, with the rows of the JSON answer', async () => {
    const json = await request(t.http)
      .get(`${url}?format=json`)
      .auth(...USERS.bob);
    expect(json.status).toBe(200);
    const items = json.body.items as string[][];
    expect(items.length).toBeGreaterThan(3000);

    const csv = await request(t.http)
      .get(`${url}?format=csv`)
      .auth(...USERS.bob);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['transfer-encoding']).toBe('chunked');
    expect(csv.headers['content-length']).toBeUndefined();
    const lines = items.map((row) => `${row.slice(0, 5).join(',')},'=1+1`);
    expect(csv.text).toBe(`A,B,C,D,E,Formula\r\n${lines.join('\r\n')}\r\n`);
    expect(csv.text.length).toBeGreaterThan(3 * 64 * 1024);

    const xml = await request(t.http)
      .get(url)
      .auth(...USERS.bob);
    expect(xml.status).toBe(200);
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.headers['transfer-encoding']).toBe('chunked');
    expect(parseStrictXml(xml.text)).toEqual({ root: 'queryResult', comments: [] });
    const last = items.length;
    expect(xml.text).toContain(
      `<row idx="${last}"><A>${items[last - 1][0]}</A><B>${items[last - 1][1]}</B><C>${items[last - 1][2]}</C><D>${items[last - 1][3]}</D><E>${items[last - 1][4]}</E><Formula>=1+1</Formula></row>\n</result>\n</queryResult>\n`,
    );
    expect(xml.text.match(/<row idx=/g)).toHaveLength(last);
  });
});
