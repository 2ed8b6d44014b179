import request from 'supertest';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';

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
