import { buildQuery, compileTemplate, QmlLimitError, type QmlLimitName } from './qml-compiler.js';
import { req } from './layouts/query/query-layout.fixtures.js';

const COL = '<column alias="D" heading="N">number</column>';
const doc = (select: string, from: string, where = '') =>
  `<qml><parameter name="p"/><statement><query><select>${select}</select><from>${from}</from>${where ? `<where>${where}</where>` : ''}</query></statement></qml>`;
const tables = (n: number) =>
  Array.from({ length: n }, (_, i) => `<table alias="${i === 0 ? 'D' : `T${i}`}">wt.doc.WTDocument</table>`).join('');
const columns = (n: number) =>
  Array.from({ length: n }, (_, i) => `<column alias="D" heading="H${i}">number</column>`).join('');
const composite = (n: number, inner: string) =>
  `${'<compositeCondition type="and">'.repeat(n)}${inner}${'</compositeCondition>'.repeat(n)}`;
const functions = (n: number) => `${'<function name="UPPER">'.repeat(n)}${COL}${'</function>'.repeat(n)}`;
const cmp =
  '<condition><operand><column alias="D">name</column></operand><operator type="equal"/><operand><constant>x</constant></operand></condition>';
const inList = (list: string) =>
  `<condition><operand><column alias="D">name</column></operand><inOperator type="in"/><inOperand><delimitedList delimiter=",">${list}</delimitedList></inOperand></condition>`;
const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`).join(',');

/** The limit error a call throws: which limit, and its message. */
function limitError(fn: () => unknown): { limit: QmlLimitName; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof QmlLimitError) return { limit: e.limit, message: e.message };
    throw e;
  }
  throw new Error('accepted');
}

describe('compiler limits', () => {
  it('takes maxTables tables and refuses one more, naming the limit', () => {
    expect(compileTemplate(doc(COL, tables(3)), { limits: { maxTables: 3 } }).tables).toHaveLength(3);
    expect(limitError(() => compileTemplate(doc(COL, tables(4)), { limits: { maxTables: 3 } }))).toEqual({
      limit: 'maxTables',
      message: '/qml/statement/query/from: 4 tables, more than the limit of 3',
    });
  });

  it('refuses the 5000 tables that exhausted PostgreSQL’s stack, with the default limit of 100', () => {
    expect(limitError(() => compileTemplate(doc(COL, tables(5000))))).toEqual({
      limit: 'maxTables',
      message: '/qml/statement/query/from: 5000 tables, more than the limit of 100',
    });
  });

  it('takes maxSelectItems items and refuses one more', () => {
    expect(compileTemplate(doc(columns(5), tables(1)), { limits: { maxSelectItems: 5 } }).select).toHaveLength(5);
    expect(limitError(() => compileTemplate(doc(columns(6), tables(1)), { limits: { maxSelectItems: 5 } }))).toEqual({
      limit: 'maxSelectItems',
      message: '/qml/statement/query/select: 6 items, more than the limit of 5',
    });
    expect(limitError(() => compileTemplate(doc(columns(1664), tables(1))))).toMatchObject({
      limit: 'maxSelectItems',
    });
  });

  it('counts the ids that order the rows as result columns, as PostgreSQL does (1664 at most)', () => {
    const limits = { maxSelectItems: 1600, maxTables: 1000 };
    const ok = compileTemplate(doc(columns(1600), tables(64)), { limits });
    expect(buildQuery(ok, req).columns).toHaveLength(1600);
    const over = compileTemplate(doc(columns(1600), tables(65)), { limits });
    expect(limitError(() => buildQuery(over, req))).toEqual({
      limit: 'maxSelectItems',
      message:
        '/qml/statement/query/select: 1600 items and the ids of 65 tables (the row order) make 1665 result columns, more than the 1664 PostgreSQL allows',
    });
  });

  it('takes maxNesting levels of compositeCondition and function, together, and refuses one more', () => {
    const limits = { maxNesting: 4 };
    expect(compileTemplate(doc(functions(4), tables(1)), { limits }).select).toHaveLength(1);
    expect(compileTemplate(doc(COL, tables(1), composite(4, cmp)), { limits }).where).not.toBeNull();
    const inner = cmp.replace('<column alias="D">name</column>', functions(2));
    expect(compileTemplate(doc(COL, tables(1), composite(2, inner)), { limits }).where).not.toBeNull();
    expect(limitError(() => compileTemplate(doc(functions(5), tables(1)), { limits }))).toEqual({
      limit: 'maxNesting',
      message:
        '/qml/statement/query/select/function[1]/function[1]/function[1]/function[1]/function[1]: conditions and functions nest more than 4 levels deep',
    });
    expect(limitError(() => compileTemplate(doc(COL, tables(1), composite(5, cmp)), { limits }))).toMatchObject({
      limit: 'maxNesting',
      message: expect.stringMatching(/compositeCondition\[1\]: conditions and functions nest more than 4 levels deep$/),
    });
    expect(limitError(() => compileTemplate(doc(COL, tables(1), composite(3, inner)), { limits }))).toMatchObject({
      limit: 'maxNesting',
    });
  });

  it('refuses elements nested past maxNesting + 16 while parsing, naming the same limit', () => {
    expect(limitError(() => compileTemplate(doc(COL, tables(1), composite(1000, cmp))))).toEqual({
      limit: 'maxNesting',
      message: 'elements nest more than 48 levels deep: conditions and functions may nest 32 levels',
    });
  });

  it('counts the values of all in-lists of one execution, parameters split, against maxListValues', () => {
    const t = compileTemplate(
      doc(
        COL,
        tables(1),
        `<compositeCondition>${inList('<constant>a,b,,c</constant>')}${inList('<parameterTarget name="p"/>')}</compositeCondition>`,
      ),
    );
    expect(buildQuery(t, { ...req, values: { p: 'x, y' } }, { maxListValues: 5 }).sql.values).toContain('y');
    expect(limitError(() => buildQuery(t, { ...req, values: { p: 'x,y,z' } }, { maxListValues: 5 }))).toEqual({
      limit: 'maxListValues',
      message:
        '/qml/statement/query/where/compositeCondition[1]/condition[2]: the in-lists hold more than 5 values in all (the limit)',
    });
  });

  it('counts the values of constant lists when the template is compiled already', () => {
    const list = inList('<constant>a,b,c</constant><constant>d;e</constant>');
    expect(compileTemplate(doc(COL, tables(1), list), { limits: { maxListValues: 4 } }).where).not.toBeNull();
    expect(limitError(() => compileTemplate(doc(COL, tables(1), list), { limits: { maxListValues: 3 } }))).toEqual({
      limit: 'maxListValues',
      message:
        '/qml/statement/query/where/condition[1]/inOperand: the in-lists hold more than 3 values in all (the limit)',
    });
  });

  it('refuses the 70 000-value list whose parameter count wrapped, with the default limit of 10 000', () => {
    const t = compileTemplate(doc(COL, tables(1), inList('<parameterTarget name="p"/>')));
    expect(limitError(() => buildQuery(t, { ...req, values: { p: values(70_000) } }))).toMatchObject({
      limit: 'maxListValues',
      message: expect.stringContaining('more than 10000 values'),
    });
  });

  it('keeps the bound values of a statement within the 65535 PostgreSQL counts', () => {
    const t = compileTemplate(doc(COL, tables(1), inList('<parameterTarget name="p"/>')));
    // The bound values besides the list: class, access scope … and LIMIT.
    const base = buildQuery(t, { ...req, values: { p: 'a' } }).sql.values.length - 1;
    const fits = buildQuery(t, { ...req, values: { p: values(65_535 - base) } }, { maxListValues: 100_000 });
    expect(fits.sql.values).toHaveLength(65_535);
    expect(
      limitError(() => buildQuery(t, { ...req, values: { p: values(65_536 - base) } }, { maxListValues: 100_000 })),
    ).toEqual({
      limit: 'boundValues',
      message:
        'the query needs 65536 bound values, more than the 65535 PostgreSQL takes: use fewer constants or list values',
    });
  });
});
