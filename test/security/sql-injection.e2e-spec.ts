import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { expectError, expectNoLeak, fingerprint } from './security-helpers.js';

/** Strings that break out of a quoted literal or identifier, or call a function, if pasted into SQL. */
const PAYLOADS = [
  `x' OR '1'='1`,
  `D"; DROP TABLE masters; --`,
  `1); DELETE FROM users; --`,
  `' UNION SELECT name, password_hash FROM users --`,
  `pg_sleep(5)`,
  `$1`,
];

/** Every attribute and text of a QML document that an attacker controls, one slot each. */
interface Slots {
  alias: string;
  heading: string;
  objectProperty: string;
  type: string;
  cls: string;
  column: string;
  op: string;
  fn: string;
  param: string;
  constant: string;
  orderBy: string;
  refJoin: string;
  linkJoin: string;
  delimiter: string;
}

const BASE: Slots = {
  alias: 'D',
  heading: 'Number',
  objectProperty: '',
  type: 'java.lang.String',
  cls: 'wt.doc.WTDocument',
  column: 'master>number',
  op: 'like',
  fn: 'UPPER',
  param: 'number',
  constant: 'k',
  orderBy: 'Number',
  refJoin: 'containerReference',
  linkJoin: 'wt.content.HolderToContent',
  delimiter: ',',
};

const x = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** Documents 000000000?, latest, in three states, with container and files: every slot used once. */
function qml(over: Partial<Slots> = {}): string {
  const s = { ...BASE, ...over };
  const a = x(s.alias);
  const states = ['INWORK', 'RELEASED', 'UNDERREVIEW'].join(s.delimiter);
  return `<?xml version="1.0" encoding="UTF-8"?>
<qml>
 <parameter name="${x(s.param)}" type="java.lang.String"><parameterDefault>000000000?</parameterDefault></parameter>
 <statement><query>
  <select>
   <object alias="${a}" heading="Doc" propertyName="${x(s.objectProperty)}"/>
   <column alias="${a}" heading="${x(s.heading)}" type="${x(s.type)}">${x(s.column)}</column>
   <function name="${x(s.fn)}" heading="Upper"><column alias="${a}">master&gt;name</column></function>
   <constant heading="Const">${x(s.constant)}</constant>
   <column alias="C" heading="Container">name</column>
   <column alias="F" heading="File">fileName</column>
  </select>
  <from>
   <table alias="${a}">${x(s.cls)}</table>
   <table alias="C">wt.inf.container.WTContainer</table>
   <table alias="F" outerJoinAlias="${a}">wt.content.ApplicationData</table>
  </from>
  <where><compositeCondition type="and">
   <condition><operand><column alias="${a}">master&gt;number</column></operand><operator type="${x(s.op)}"/><operand><parameterTarget name="${x(s.param)}"/></operand></condition>
   <condition><operand><column alias="${a}">iterationInfo.latest</column></operand><operator type="equal"/><operand><constant>1</constant></operand></condition>
   <condition><operand><column alias="${a}">state.state</column></operand><inOperator type="in"/><inOperand><delimitedList delimiter="${x(s.delimiter)}"><constant>${x(states)}</constant></delimitedList></inOperand></condition>
  </compositeCondition></where>
  <orderBy><orderByItem><columnTarget heading="${x(s.orderBy)}"/></orderByItem></orderBy>
  <referenceJoin><join name="${x(s.refJoin)}"><aliasTarget alias="${a}"/><aliasTarget alias="C"/></join></referenceJoin>
  <linkJoin><join name="${x(s.linkJoin)}"><aliasTarget alias="${a}"/><aliasTarget alias="F"/></join></linkJoin>
 </query></statement>
</qml>`;
}

describe('SQL injection through QML and q', () => {
  let db: pg.Pool;
  let before: Record<string, string>;
  let baseline: unknown[][];
  let hashes: string[];

  const report = (doc: string, query: Record<string, string> = {}) =>
    request(t.http)
      .post('/reports')
      .query(query)
      .auth(...USERS.bob)
      .set('Content-Type', 'text/xml')
      .send(doc);

  const t = useTestApp({ AUTH_FAILURE_LIMIT: '1000000', REPORT_TIMEOUT_MS: '3000' });
  beforeAll(async () => {
    db = testPool();
    before = await fingerprint(db);
    hashes = (await db.query<{ h: string }>('SELECT password_hash AS h FROM users')).rows.map((r) => r.h);
    const res = await report(qml());
    expect(res.status).toBe(200);
    baseline = res.body.items as unknown[][];
    expect(baseline.length).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await db.end();
  });
  afterEach(async () => {
    expect(await fingerprint(db)).toEqual(before);
  });

  /** Free text (aliases, headings, delimiters) is only a label: the result is the baseline's. */
  it.each(PAYLOADS)('treats %j as a plain label in aliases, headings and delimiters', async (p) => {
    for (const over of [
      { alias: p },
      { heading: p, orderBy: p },
      { delimiter: p },
      { param: p },
    ] satisfies Partial<Slots>[]) {
      const res = await report(qml(over));
      expect({ over, status: res.status }).toEqual({ over, status: 200 });
      expect(res.body.items).toEqual(baseline);
    }
  });

  /** Names looked up in the registry are refused when unknown, with the element's path. */
  it.each(PAYLOADS)('refuses %j as a name of a class, property, operator, function, join or macro', async (p) => {
    const cases: [Partial<Slots>, RegExp][] = [
      [{ cls: p }, /from\/table\[1\]: unknown class/],
      [{ column: p }, /select\/column\[1\]: unknown property/],
      [{ objectProperty: p }, /select\/object\[1\]: unknown .*property/],
      [{ op: p }, /condition\[1\]\/operator: unknown type/],
      [{ fn: p }, /select\/function\[1\]: unknown function/],
      [{ orderBy: p }, /orderBy/],
      [{ refJoin: p }, /referenceJoin\/join\[1\]\/@name: unknown reference/],
      [{ linkJoin: p }, /linkJoin\/join\[1\]\/@name: unknown link/],
    ];
    for (const [over, message] of cases) {
      const res = await report(qml(over));
      expectError(res, 400, expect.stringMatching(message) as unknown as RegExp, [p]);
      for (const hash of hashes) expect(res.text).not.toContain(hash);
    }
  });

  it.each(PAYLOADS)('binds %j as a value: constant, parameter value, type attribute', async (p) => {
    const asConstant = await report(qml({ constant: p }));
    expect(asConstant.status).toBe(200);
    expect(asConstant.body.items).toEqual(baseline.map((row) => row.map((v, i) => (i === 3 ? p : v))));

    const asValue = await report(qml(), { number: p });
    expect(asValue.status).toBe(200);
    expect(asValue.body).toEqual({ count: 0, items: [], _runtime: expect.any(Number) });

    const asType = await report(qml({ type: p }));
    expectNoLeak(asType);
    if (asType.status === 200) expect(asType.body.items).toEqual(baseline);
    else expectError(asType, 400);
  });

  it('binds a value through a named report parameter and a macro-looking parameter default', async () => {
    const res = await request(t.http)
      .get('/reports/Documents%20by%20number')
      .query({ number: `0' OR '1'='1`, format: 'json' })
      .auth(...USERS.bob);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 0, items: [] });
  });

  const query = (q: unknown) =>
    request(t.http)
      .get('/query/1.0/query')
      .query({ q: JSON.stringify(q), limit: '1000' })
      .auth(...USERS.bob);

  let all = 0;
  beforeAll(async () => {
    all = (await query({})).body.total as number;
    expect(all).toBeGreaterThan(0);
  });

  it.each(PAYLOADS)('binds %j in every q value and refuses it as a q key, operator or sort key', async (p) => {
    for (const key of ['number', 'name', 'state', 'version', 'container', 'createdBy', 'modifiedBy', 'subtype']) {
      for (const value of [p, [p], { eq: p }, { like: `${p}*` }, { ilike: p }, { in: [p] }, { ne: p }]) {
        const res = await query({ [key]: value });
        expect({ key, value, status: res.status }).toEqual({ key, value, status: 200 });
        // ne matches every object whose value differs: the payload matches nothing, so ne matches all.
        if ('ne' in Object(value)) expect(res.body.total).toBe(all);
        else expect(res.body).toMatchObject({ session_id: 0, total: 0, items: [] });
      }
    }
    const attr = await query({ 'attributes.material': p });
    expect(attr.status).toBe(200);
    expect(attr.body).toMatchObject({ session_id: 0, total: 0, items: [] });

    const refused = [
      { [p]: 'x' },
      { [`attributes.${p}`]: { [p]: 1 } },
      { number: { [p]: 'x' } },
      { type: p },
      { sort: p },
      { sort: [p] },
      { sort: `-${p}` },
      { created: { gte: p } },
      { iteration: p },
      { latest: p },
    ];
    for (const q of refused) {
      const res = await query(q);
      expectError(res, 400, expect.stringMatching(/^q\[0\]/) as unknown as RegExp, [p, JSON.stringify(p)]);
    }
  });

  it('keeps every table as it was and answers within the timeout (no pg_sleep ran)', async () => {
    const started = Date.now();
    const res = await report(qml({ fn: 'pg_sleep' }));
    expectError(res, 400, '/qml/statement/query/select/function[1]: unknown function "pg_sleep"', ['pg_sleep']);
    expect(Date.now() - started).toBeLessThan(2000);
    const { rows } = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM users WHERE name = 'alice'`);
    expect(rows[0].n).toBe('1');
  });
});
