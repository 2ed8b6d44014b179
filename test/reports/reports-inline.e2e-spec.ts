import request from 'supertest';
import { USERS, type TestApp } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { cond, demoQml, docQuery, LATEST, NUMBER } from './report-fixtures.js';

const post = (t: TestApp, qml: string, user: readonly [string, string] = USERS.alice, query = '') =>
  request(t.http)
    .post(`/reports${query}`)
    .auth(...user)
    .set('Content-Type', 'text/xml')
    .send(qml);

describe('POST /reports (inline QML)', () => {
  const t = useTestApp();

  it('runs the "Documents by number" template with a wildcard parameter', async () => {
    const res = await post(t, demoQml('Documents by number'), USERS.alice, '?number=000000000*');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['_runtime', 'count', 'items']);
    expect(res.body.count).toBe(5);
    expect(res.body.items.map((r: unknown[]) => r[1])).toEqual([
      '0000000001',
      '0000000002',
      '0000000003',
      '0000000004',
      '0000000005',
    ]);
    const [first] = res.body.items;
    expect(first[0]).toMatch(/^OR:wt\.doc\.WTDocument:\d+$/);
    expect(first.slice(1)).toEqual(['0000000001', 'Drive unit specification', 'INWORK', '2026-11-01T08:00:00.000Z']);
    expect(typeof res.body._runtime).toBe('number');
  });

  it('uses the parameter default (*) and filters rows to the containers the caller may read', async () => {
    const alice = await post(t, demoQml('Documents by number'));
    expect(alice.status).toBe(200);
    expect(alice.body.items.map((r: unknown[]) => r[1])).toEqual([
      '0000000001',
      '0000000002',
      '0000000003',
      '0000000004',
      '0000000005',
      '0000000901',
    ]);
    const carol = await post(t, demoQml('Documents by number'), USERS.carol);
    expect(carol.body.items.map((r: unknown[]) => r[1])).toEqual(['0000000901', 'SP00001-X']);
    const admin = await post(t, demoQml('Documents by number'), USERS.admin);
    expect(admin.body.count).toBe(7);
  });

  it('ignores bypassAccessControl for non-administrators', async () => {
    const qml = demoQml('Documents by number').replace('bypassAccessControl="false"', 'bypassAccessControl="true"');
    const bob = await post(t, qml, USERS.bob);
    expect(bob.status).toBe(200);
    expect(bob.body.items.map((r: unknown[]) => r[1])).not.toContain('SP00001-X');
    const admin = await post(t, qml, USERS.admin);
    expect(admin.body.items.map((r: unknown[]) => r[1])).toContain('SP00001-X');
  });

  it('runs "Released parts" with derived properties and a custom attribute', async () => {
    const res = await post(t, demoQml('Released parts'), USERS.bob);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      ['P-00000002', 'Housing', 'A.1', 'Drive Unit', 'AlSi10Mg'],
      ['STD-000001', 'M6 bolt', 'A.1', 'Standard Parts', '8.8 steel'],
      ['STD-000002', 'M6 nut', 'A.1', 'Standard Parts', '8 steel'],
    ]);
    const inwork = await post(t, demoQml('Released parts'), USERS.bob, '?state=INWORK');
    expect(inwork.body.items).toEqual([['P-00000001', 'Drive unit', 'A.1', 'Drive Unit', null]]);
  });

  it('runs "Part structure" through reference joins, ordered by number and line', async () => {
    const res = await post(t, demoQml('Part structure'));
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      ['P-00000001', 'P-00000002', 'Housing', 1, 10],
      ['P-00000001', 'STD-000001', 'M6 bolt', 4, 20],
      ['P-00000001', 'STD-000002', 'M6 nut', 4, 30],
    ]);
  });

  it('runs "Files per state" with a link join, COUNT and SUM grouped by state', async () => {
    const res = await post(t, demoQml('Files per state'));
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      ['INWORK', 3, 90],
      ['RELEASED', 1, 31],
      ['UNDERREVIEW', 1, 22],
    ]);
  });

  it('runs "My recent work" for the caller (CURRENT_USER_NAME) with SYSDATE - days', async () => {
    const res = await post(t, demoQml('My recent work'), USERS.alice, '?days=100000');
    expect(res.status).toBe(200);
    const numbers = res.body.items.map((r: unknown[]) => r[1]);
    expect(numbers).toContain('0000000001');
    expect(numbers).toContain('P-00000001');
    expect(numbers).not.toContain('STD-000001');
    for (const row of res.body.items) {
      expect(row[0]).toMatch(/^OR:wt\.(doc\.WTDocument|part\.WTPart|epm\.EPMDocument):\d+$/);
      expect(['Document', 'Part', 'CAD Document']).toContain(row[2]);
    }
    const modified = res.body.items.map((r: unknown[]) => r[3] as string);
    expect([...modified].sort().reverse()).toEqual(modified);
    const carol = await post(t, demoQml('My recent work'), USERS.carol, '?days=100000');
    expect(carol.body.items.map((r: unknown[]) => r[1]).sort()).toEqual(
      ['STD-000001', 'STD-000002', 'SP00001-X', '0000000901'].sort(),
    );
    const none = await post(t, demoQml('My recent work'), USERS.alice, '?days=0.000001');
    expect(none.body).toMatchObject({ count: 0, items: [] });
  });

  it('accepts a BOM, CRLF line ends, comments, unknown attributes and application/xml', async () => {
    const qml = `\uFEFF${demoQml('Part structure').replace(/\n/g, '\r\n').replace('<statement>', '<!-- exported --><statement legacyMode="x">')}`;
    const res = await request(t.http)
      .post('/reports')
      .auth(...USERS.alice)
      .set('Content-Type', 'application/xml; charset=utf-8')
      .send(qml);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
  });

  it('matches SQL text in values literally', async () => {
    const res = await post(
      t,
      demoQml('Documents by number'),
      USERS.admin,
      `?number=${encodeURIComponent("x' OR '1'='1")}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 0, items: [] });
    const name = await post(t, docQuery(NUMBER, cond('name', 'equal', "Test plan' OR '1'='1")), USERS.admin);
    expect(name.body.count).toBe(0);
  });

  it('treats * and ? as wildcards and % and _ as SQL wildcards in like', async () => {
    const q = (p: string) =>
      docQuery(NUMBER, `<compositeCondition type="and">${LATEST}${cond('name', 'like', p)}</compositeCondition>`);
    expect((await post(t, q('*100%*'))).body.items).toEqual([['0000000004']]);
    expect((await post(t, q('Test?plan'))).body.items).toEqual([['0000000002']]);
    expect((await post(t, q('Test_plan'))).body.items).toEqual([['0000000002']]);
    const notLike = docQuery(
      NUMBER,
      `<compositeCondition type="and">${LATEST}${cond('name', 'notLike', '*a*')}</compositeCondition>`,
    );
    expect((await post(t, notLike)).body.items).toEqual([['0000000004']]);
  });

  it('supports or, in, notIn, null operators and nested composite conditions', async () => {
    const inList = `<condition><operand><column alias="D">state.state</column></operand><inOperator type="in"/><inOperand><delimitedList delimiter=";"><constant>RELEASED; OBSOLETE</constant></delimitedList></inOperand></condition>`;
    const res = await post(
      t,
      docQuery(NUMBER, `<compositeCondition type="and">${LATEST}${inList}</compositeCondition>`),
      USERS.admin,
    );
    expect(res.body.items).toEqual([['0000000005'], ['0000000901']]);
    const or = `<compositeCondition type="and">${LATEST}<compositeCondition type="or">${cond('master>number', 'equal', '0000000002')}${cond('master>number', 'equal', '0000000003')}</compositeCondition></compositeCondition>`;
    expect((await post(t, docQuery(NUMBER, or))).body.items).toEqual([['0000000002'], ['0000000003']]);
    const isNull = `<compositeCondition type="and">${LATEST}<condition><operand><column alias="D">title</column></operand><nullOperator type="isNotNull"/></condition></compositeCondition>`;
    expect((await post(t, docQuery(NUMBER, isNull))).body.items).toEqual([['0000000001']]);
    const notIn = inList.replace('type="in"', 'type="notIn"');
    const r2 = await post(
      t,
      docQuery(NUMBER, `<compositeCondition type="and">${LATEST}${notIn}</compositeCondition>`),
      USERS.alice,
    );
    expect(r2.body.items.map((r: string[]) => r[0])).toEqual(['0000000001', '0000000002', '0000000003', '0000000004']);
  });

  it('takes parameter values for in-lists and converts them to the property type', async () => {
    const qml = `<qml><parameter name="ids" type="java.lang.String"/><statement><query>
      <select><column alias="D" heading="N">number</column></select>
      <from><table alias="D">wt.doc.WTDocument</table></from>
      <where><compositeCondition>${LATEST}<condition><operand><column alias="D">iterationInfo.identifier.iterationId</column></operand>
        <inOperator type="in"/><inOperand><delimitedList><parameterTarget name="ids"/></delimitedList></inOperand></condition></compositeCondition></where>
    </query></statement></qml>`;
    const ok = await post(t, qml, USERS.alice, '?ids=2,%203');
    expect(ok.status).toBe(200);
    expect(ok.body.items).toEqual([['0000000001']]);
    const bad = await post(t, qml, USERS.alice, '?ids=2,x');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      '/qml/statement/query/where/compositeCondition[1]/condition[2]/inOperand/delimitedList/parameterTarget[1]: parameter "ids" value "x" is not a number',
    );
  });

  it('selects functions, constants, distinct values and orders descending with a total order', async () => {
    const select = `<function name="UPPER" heading="U"><column alias="D">name</column></function>
      <function name="CONCAT" heading="C"><column alias="D">number</column><constant>/</constant><column alias="D">versionInfo.identifier.versionId</column></function>
      <function name="SUBSTRING" heading="S"><column alias="D">name</column><constant>1</constant><constant>4</constant></function>
      <function name="LENGTH" heading="L"><column alias="D">name</column></function>
      <function name="ADD" heading="A"><column alias="D">iterationInfo.identifier.iterationId</column><constant>10</constant></function>
      <constant heading="K" type="java.lang.Long">7</constant>`;
    const res = await post(t, docQuery(select, cond('master>number', 'equal', '0000000002')));
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([['TEST PLAN', '0000000002/A', 'Test', 9, 11, 7]]);
    const distinct = docQuery(
      '<column alias="D" heading="State">state.state</column>',
      '',
      '<orderBy><orderByItem type="desc"><columnTarget heading="State"/></orderByItem></orderBy>',
    ).replace('<select>', '<select distinct="true">');
    const d = await post(t, distinct, USERS.admin);
    expect(d.body.items).toEqual([['UNDERREVIEW'], ['RELEASED'], ['OBSOLETE'], ['INWORK']]);
  });

  it('serializes booleans, longs, timestamps and null', async () => {
    const select = `<column alias="D" heading="Latest">iterationInfo.latest</column><column alias="D" heading="It">iterationInfo.identifier.iterationId</column>
      <column alias="D" heading="Created">thePersistInfo.createStamp</column><column alias="D" heading="Title">title</column>`;
    const res = await post(t, docQuery(select, cond('master>number', 'equal', '0000000002')));
    expect(res.body.items).toEqual([[true, 1, '2026-03-02T10:00:00.000Z', null]]);
  });

  it('compares timestamps with ISO-8601 text and rejects what does not convert', async () => {
    const q = (v: string) =>
      docQuery(
        NUMBER,
        `<compositeCondition>${LATEST}${cond('thePersistInfo.modifyStamp', 'greaterThan', v)}</compositeCondition>`,
      );
    const ok = await post(t, q('2026-06-01T00:00:00Z'));
    expect(ok.body.items).toEqual([['0000000001']]);
    const bad = await post(t, q('next week'));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      '/qml/statement/query/where/compositeCondition[1]/condition[2]/operand[2]/constant[1]: value "next week" is not an ISO-8601 timestamp',
    );
  });

  it('left-joins a table with outerJoinAlias', async () => {
    const qml = `<qml><statement><query>
      <select><column alias="D" heading="N">master&gt;number</column><column alias="F" heading="File">fileName</column></select>
      <from><table alias="D">wt.doc.WTDocument</table><table alias="F" outerJoinAlias="D">wt.content.ApplicationData</table></from>
      <where><compositeCondition>${LATEST}<condition><operand><column alias="D">master&gt;number</column></operand><operator type="lessThanOrEqual"/><operand><constant>0000000003</constant></operand></condition></compositeCondition></where>
      <orderBy><orderByItem><columnTarget heading="N"/></orderByItem><orderByItem><columnTarget heading="File"/></orderByItem></orderBy>
      <linkJoin><join name="wt.content.HolderToContent"><aliasTarget alias="D"/><aliasTarget alias="F"/></join></linkJoin>
    </query></statement></qml>`;
    const res = await post(t, qml);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      ['0000000001', 'notes.md'],
      ['0000000001', 'spec.txt'],
      ['0000000002', 'test-plan.txt'],
      ['0000000003', null],
    ]);
  });

  it('answers 415 for a body that is not XML', async () => {
    const res = await request(t.http)
      .post('/reports')
      .auth(...USERS.alice)
      .send({ qml: '<qml/>' });
    expect(res.status).toBe(415);
    expect(res.body.message).toMatch(/text\/xml or application\/xml/);
  });

  it('answers 401 without credentials', async () => {
    const res = await request(t.http).post('/reports').set('Content-Type', 'text/xml').send(demoQml('Part structure'));
    expect(res.status).toBe(401);
  });
});
