import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { docQuery, NUMBER } from '../reports/report-fixtures.js';
import { parseStrictXml } from '../reports/xml-well-formed.js';
import { expectError, fingerprint } from './security-helpers.js';

const ENTITIES = 'entity declarations (<!ENTITY) are not allowed in QML';
const LIMIT = 64 * 1024;

/** A valid document query with a DOCTYPE (internal subset or external id) put in front. */
const withDoctype = (doctype: string) =>
  docQuery(NUMBER)
    .replace('<qml>', `${doctype}\n<qml>`)
    .replace(/^<\?xml[^>]*\?>\s*/, '');

/** A document query with `inner` as its select items, on line 3 from column 9. */
const withSelect = (inner: string) =>
  `<qml>\n<statement><query>\n<select>${inner}</select>\n<from><table alias="D">wt.doc.WTDocument</table></from>\n</query></statement>\n</qml>`;

const billionLaughs = [
  '<?xml version="1.0"?>',
  '<!DOCTYPE qml [',
  '<!ENTITY lol "lol">',
  ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
  ']>',
  '<qml><statement><query><select><constant heading="x">&lol9;</constant></select>',
  '<from><table alias="D">wt.doc.WTDocument</table></from></query></statement></qml>',
].join('\n');

describe('XML attacks on the report service', () => {
  let db: pg.Pool;
  let before: Record<string, string>;
  const templateName = 'Security XML probe';

  const t = useTestApp({ XML_BODY_LIMIT: String(LIMIT) });
  beforeAll(async () => {
    db = testPool();
    before = await fingerprint(db);
  });
  afterAll(async () => {
    // Nothing may have been stored by any of the refused documents.
    expect(await fingerprint(db)).toEqual(before);
    await db.end();
  });

  const run = (body: string | Buffer, contentType = 'text/xml') =>
    request(t.http)
      .post('/reports')
      .auth(...USERS.alice)
      .set('Content-Type', contentType)
      .send(body);
  const store = (body: string | Buffer) =>
    request(t.http)
      .put(`/reports/${encodeURIComponent(templateName)}?container=Standard%20Parts`)
      .auth(...USERS.carol)
      .set('Content-Type', 'application/xml')
      .send(body);

  it.each([
    ['an external SYSTEM entity', '<!DOCTYPE qml [<!ENTITY x SYSTEM "file:///etc/passwd">]>'],
    ['a SYSTEM entity over http', '<!DOCTYPE qml [<!ENTITY x SYSTEM "http://127.0.0.1:9/x">]>'],
    ['a PUBLIC entity', '<!DOCTYPE qml [<!ENTITY x PUBLIC "-//A//B" "http://127.0.0.1:9/x.dtd">]>'],
    ['a parameter entity', '<!DOCTYPE qml [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>'],
    ['a nested parameter entity', '<!DOCTYPE qml [<!ENTITY % a "<!ENTITY b \'x\'>"> %a;]>'],
    ['an internal entity', '<!DOCTYPE qml [<!ENTITY x "D">]>'],
    ['an entity in lower case', '<!DOCTYPE qml [<!entity x SYSTEM "file:///etc/passwd">]>'],
  ])('refuses %s, inline and when storing a template', async (_name, doctype) => {
    const doc = withDoctype(doctype).replace('master&gt;number', 'master&gt;number&x;');
    for (const res of [await run(doc), await store(doc)]) {
      if (/<!entity/.test(doctype)) expectError(res, 400);
      else expectError(res, 400, ENTITIES);
      expect(res.text).not.toMatch(/root:|daemon:/);
    }
  });

  it('refuses the billion laughs quickly, without expanding anything', async () => {
    const started = Date.now();
    for (const res of [await run(billionLaughs), await store(billionLaughs)]) expectError(res, 400, ENTITIES);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('never fetches an external DTD named by a DOCTYPE without entities', async () => {
    for (const doctype of [
      '<!DOCTYPE qml SYSTEM "file:///etc/passwd">',
      '<!DOCTYPE qml PUBLIC "-//A//B" "http://127.0.0.1:9/qml.dtd">',
    ]) {
      const res = await run(withDoctype(doctype));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ count: expect.any(Number), items: expect.any(Array), _runtime: expect.any(Number) });
      expect(res.text).not.toMatch(/root:|daemon:/);
    }
  });

  it('treats an undeclared entity reference as an error, not as a lookup', async () => {
    const res = await run(docQuery('<column alias="D" heading="N">&xxe;</column>'));
    expectError(res, 400);
    expect(res.body.message).not.toMatch(/passwd/);
  });

  it.each([
    ['plain elements', (n: number) => `<qml>${'<a>'.repeat(n)}${'</a>'.repeat(n)}</qml>`, 8000],
    [
      'composite conditions',
      (n: number) =>
        docQuery(NUMBER, `${'<compositeCondition type="and">'.repeat(n)}${'</compositeCondition>'.repeat(n)}`),
      1000,
    ],
  ])('refuses or survives deep nesting of %s without a 5xx', async (_name, build, depth) => {
    const body = build(depth);
    expect(body.length).toBeLessThan(LIMIT);
    const started = Date.now();
    for (const res of [await run(body), await store(body)]) {
      expect(res.status).toBe(400);
      expectError(res, 400);
    }
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it.each([
    ['a bare &', '<constant heading="x">R & D</constant>', 'line 3, column 33: a bare "&" (write &amp;)'],
    ['a bare & in an attribute', '<constant heading="R&D">x</constant>', 'line 3, column 29: a bare "&" (write &amp;)'],
    [
      'a C0 control character',
      '<constant heading="x">a\u0001</constant>',
      'line 3, column 32: character U+0001 is not allowed in XML 1.0',
    ],
    [
      'U+FFFE',
      '<constant heading="x">\uFFFE</constant>',
      'line 3, column 31: character U+FFFE is not allowed in XML 1.0',
    ],
    [
      'a reference to a lone surrogate',
      '<constant heading="x">&#xD800;</constant>',
      'line 3, column 31: &#xD800; is not a character XML 1.0 allows',
    ],
    [
      'a reference to a C0 control character',
      '<constant heading="x">&#27;</constant>',
      'line 3, column 31: &#27; is not a character XML 1.0 allows',
    ],
  ])('refuses a document with %s, inline and when storing it, naming line and column', async (_name, inner, where) => {
    const doc = withSelect(inner);
    for (const res of [await run(doc), await store(doc)]) expectError(res, 400, `malformed XML at ${where}`);
  });

  it('gives the real line and column of an element left open', async () => {
    // Before, this was "line 1, column 1" whatever the document.
    const doc = '<?xml version="1.0"?>\n<qml>\n  <statement><query>\n';
    for (const res of [await run(doc), await store(doc)]) {
      expectError(res, 400, 'malformed XML at line 4, column 1: unclosed tag: query');
    }
    const mismatched = '<qml>\n  <statement><query>\n    <select>\n</query></statement>\n</qml>';
    expectError(await run(mismatched), 400, 'malformed XML at line 4, column 8: unexpected close tag');
  });

  it('writes well-formed XML even for a stored template that is not, or for control characters in values', async () => {
    // A template stored before the check (or by an import): refused with its position, never
    // written into an ill-formed queryResult.
    const name = 'Security XML legacy';
    const inserted = await db.query<{ id: number }>(
      `INSERT INTO report_templates (name, container_id, qml, modified_at)
       SELECT $1, id, $2, now() FROM containers WHERE name = 'Standard Parts' RETURNING id`,
      [name, withSelect('<constant heading="R&D">&#xD800;</constant>')],
    );
    try {
      const res = await request(t.http)
        .get(`/reports/${encodeURIComponent(name)}`)
        .auth(...USERS.carol);
      expectError(res, 400, 'malformed XML at line 3, column 29: a bare "&" (write &amp;)');
    } finally {
      await db.query('DELETE FROM report_templates WHERE id = $1', [inserted.rows[0].id]);
    }
    // Parameters reach the output as given: a control character is replaced, and said so.
    const res = await request(t.http)
      .get('/reports/Released%20parts?state=IN%01WORK&note=%EF%BF%BF')
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(parseStrictXml(res.text)).toEqual({
      root: 'queryResult',
      comments: [' characters XML 1.0 cannot carry were replaced by U+FFFD '],
    });
    expect(res.text).toContain(
      '<auxData><dataItem name="state">IN\uFFFDWORK</dataItem><dataItem name="note">\uFFFD</dataItem></auxData>',
    );
    expect(res.text).toContain('<actualParameter parameterId="state">IN\uFFFDWORK</actualParameter>');
  });

  it('refuses a body past XML_BODY_LIMIT with 413, stored or inline', async () => {
    const huge = docQuery(NUMBER).replace('<qml>', `<qml><!--${'x'.repeat(LIMIT)}-->`);
    for (const res of [await run(huge), await store(huge), await run(huge, 'application/xml')]) {
      expectError(res, 413, `request body larger than the limit of ${LIMIT} bytes`);
    }
  });

  it.each([
    ['UTF-16 declared in the content type', 'text/xml; charset=utf-16', 415],
    ['XML sent as JSON (parsed as JSON, so invalid)', 'application/json', 400],
    ['a form', 'application/x-www-form-urlencoded', 415],
  ])('refuses %s', async (_name, contentType, status) => {
    const res = await run(docQuery(NUMBER), contentType);
    expectError(res, status);
  });

  it('refuses bytes that are not UTF-8 and a UTF-16 document', async () => {
    const latin1 = Buffer.from(docQuery('<constant heading="x">caf\u00e9</constant>'), 'latin1');
    expectError(await run(latin1), 400, `request body is not valid UTF-8 at byte ${latin1.indexOf(0xe9)}`);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(docQuery(NUMBER), 'utf16le')]);
    expectError(await run(utf16), 400);
  });
});
