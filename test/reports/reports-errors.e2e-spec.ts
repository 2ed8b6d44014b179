import request from 'supertest';
import { USERS, type TestApp } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { cond, demoQml, docQuery, LATEST, NUMBER } from './report-fixtures.js';

const post = (t: TestApp, body: string | Buffer, query = '') =>
  request(t.http)
    .post(`/reports${query}`)
    .auth(...USERS.alice)
    .set('Content-Type', 'text/xml')
    .send(body);

const Q = '/qml/statement/query';

describe('POST /reports rejects bad input with 400 and the element path', () => {
  const t = useTestApp({ XML_BODY_LIMIT: '64kb' });

  const cases: [string, string, string | RegExp][] = [
    ['malformed XML', '<qml><statement></qml>', /^malformed XML at line 1, column \d+: /],
    ['a wrong root', '<query/>', '/query: the root element must be "qml"'],
    ['two roots', '<qml/><qml/>', 'malformed XML at line 1, column 11: documents may contain only one root'],
    [
      'an entity declaration',
      '<!DOCTYPE qml [<!ENTITY x "boom">]><qml>&x;</qml>',
      'entity declarations (<!ENTITY) are not allowed in QML',
    ],
    [
      'an external entity',
      '<!DOCTYPE qml [<!ENTITY x SYSTEM "file:///etc/passwd">]><qml>&x;</qml>',
      'entity declarations (<!ENTITY) are not allowed in QML',
    ],
    [
      'an unknown class',
      docQuery(NUMBER).replace('wt.doc.WTDocument', 'wt.doc.Secret'),
      `${Q}/from/table[1]: unknown class wt.doc.Secret: package wt.doc is known (wt.doc.WTDocument, wt.doc.WTDocumentMaster) but not this class; declare it in the dataset's "types" (docs/catalog.md) as a class with a parent there`,
    ],
    [
      'an unknown property',
      docQuery('<column alias="D" heading="X">password</column>'),
      `${Q}/select/column[1]: unknown property "password" of wt.doc.WTDocument`,
    ],
    [
      'an unknown operator',
      docQuery(
        NUMBER,
        `<compositeCondition type="and">${LATEST}${cond('name', 'approximately', 'x')}</compositeCondition>`,
      ),
      `${Q}/where/compositeCondition[1]/condition[2]/operator: unknown type "approximately"`,
    ],
    [
      'pg_sleep',
      docQuery('<function name="pg_sleep" heading="Z"><constant>10</constant></function>'),
      `${Q}/select/function[1]: unknown function "pg_sleep"`,
    ],
    [
      'an undeclared alias',
      docQuery('<column alias="Doc" heading="N">number</column>'),
      `${Q}/select/column[1]: alias "Doc" is not declared in from`,
    ],
    [
      'an undeclared parameter',
      docQuery(
        NUMBER,
        '<condition><operand><column alias="D">name</column></operand><operator type="equal"/><operand><parameterTarget name="n"/></operand></condition>',
      ),
      `${Q}/where/condition[1]/operand[2]/parameterTarget[1]: parameter "n" is not declared`,
    ],
    [
      'SQL in an alias',
      docQuery('<column alias="D&quot;; DROP TABLE users; --" heading="N">number</column>'),
      `${Q}/select/column[1]: alias "D"; DROP TABLE users; --" is not declared in from`,
    ],
    [
      'SQL in a property path',
      docQuery('<column alias="D" heading="N">number; DELETE FROM masters</column>'),
      `${Q}/select/column[1]: unknown property "number; DELETE FROM masters" of wt.doc.WTDocument`,
    ],
    [
      'SQL in an operator',
      docQuery(NUMBER, cond('name', "equal' OR 1=1 --", 'x')),
      `${Q}/where/condition[1]/operator: unknown type "equal' OR 1=1 --"`,
    ],
    [
      'SQL in a sort direction',
      docQuery(
        NUMBER,
        '',
        '<orderBy><orderByItem type="asc; DROP TABLE users"><columnTarget heading="Number"/></orderByItem></orderBy>',
      ),
      `${Q}/orderBy/orderByItem[1]/@type: unknown type "asc; DROP TABLE users" (asc, desc)`,
    ],
    ['an unknown element', docQuery(NUMBER, '', '<having/>'), `${Q}/having: unexpected element "having" in query`],
    [
      'an aggregate next to a plain column without group',
      docQuery(`${NUMBER}<function name="COUNT" heading="C"><column alias="D">name</column></function>`),
      `${Q}/select: aggregate functions next to other items need select group="true"`,
    ],
    [
      'an unknown reference',
      docQuery(
        NUMBER,
        '',
        '<referenceJoin><join name="secretRef"><aliasTarget alias="D"/><aliasTarget alias="D"/></join></referenceJoin>',
      ),
      `${Q}/referenceJoin/join[1]/@name: unknown reference "secretRef" of wt.doc.WTDocument (its references: masterReference, containerReference, iterationInfo.creator, iterationInfo.modifier)`,
    ],
    [
      'a wrong function arity',
      docQuery('<function name="SUBSTRING" heading="S"><column alias="D">name</column></function>'),
      `${Q}/select/function[1]: SUBSTRING takes 2 to 3 argument(s), found 1`,
    ],
    [
      'an order by an unknown heading',
      docQuery(NUMBER, '', '<orderBy><orderByItem><columnTarget heading="Nope"/></orderByItem></orderBy>'),
      `${Q}/orderBy/orderByItem[1]/columnTarget: no selected item has the heading "Nope"`,
    ],
    [
      'a bad boolean',
      docQuery(NUMBER, cond('iterationInfo.latest', 'equal', 'maybe')),
      `${Q}/where/condition[1]/operand[2]/constant[1]: value "maybe" is not a boolean (true, false, 1, 0)`,
    ],
    [
      'a bad macro',
      docQuery('<constant heading="M" isMacro="true">CURRENT_PASSWORD</constant>'),
      `${Q}/select/constant[1]: unknown macro "CURRENT_PASSWORD" (CURRENT_USER_NAME, CURRENT_USER, CURRENT_TIME, CURRENT_DATE)`,
    ],
    ['an empty body', '', 'the QML document is empty'],
  ];

  it.each(cases)('rejects %s', async (_, body, message) => {
    const res = await post(t, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    if (typeof message === 'string') expect(res.body.message).toBe(message);
    else expect(res.body.message).toMatch(message);
  });

  it('rejects a parameter without a value', async () => {
    const qml = demoQml('Documents by number').replace(/<parameterDefault[^>]*>\*<\/parameterDefault>/, '');
    const res = await post(t, qml);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `${Q}/where/compositeCondition[1]/condition[1]/operand[2]/parameterTarget[1]: parameter "number" has no value`,
    );
  });

  it('rejects a parameter given twice', async () => {
    const res = await post(t, demoQml('Documents by number'), '?number=1&number=2');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('parameter "number" is given 2 times; give it once');
  });

  it('rejects bytes that are not UTF-8', async () => {
    const head = '<qml><statement><query><select><constant heading="x">';
    const body = Buffer.concat([
      Buffer.from(head),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('</constant></select></query></statement></qml>'),
    ]);
    const res = await post(t, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`request body is not valid UTF-8 at byte ${head.length}`);
  });

  it('rejects a body over XML_BODY_LIMIT with 413', async () => {
    const res = await post(t, `<qml>${' '.repeat(70 * 1024)}</qml>`);
    expect(res.status).toBe(413);
    expect(res.body.statusCode).toBe(413);
  });

  it('rejects a charset other than UTF-8 with 415', async () => {
    const res = await request(t.http)
      .post('/reports')
      .auth(...USERS.alice)
      .set('Content-Type', 'text/xml; charset=iso-8859-1')
      .send('<qml/>');
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('QML documents are UTF-8, not iso-8859-1');
  });

  it('never answers 500 to a mutilated template', async () => {
    const qml = demoQml('My recent work');
    for (let cut = 40; cut < qml.length; cut += 97) {
      const res = await post(t, qml.slice(0, cut) + qml.slice(cut + 13));
      expect([200, 400]).toContain(res.status);
    }
  });
});
