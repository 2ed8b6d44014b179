import { buildQuery, compileTemplate } from '../qml-compiler.js';
import { QmlError } from '../qml-error.js';
import type { PlanRequest } from '../plan/plan.js';

const req: PlanRequest = {
  values: {},
  user: { id: 2, name: 'alice', admin: false },
  readable: null,
  now: new Date('2026-05-06T00:00:00Z'),
  limit: 10,
};
const FROM = '<from><table alias="D">wt.doc.WTDocument</table><table alias="L">wt.part.WTPartUsageLink</table></from>';
const q = (select: string, params = '') =>
  `<qml>${params}<statement><query><select>${select}</select>${FROM}</query></statement></qml>`;
const param = (name: string, type = 'java.lang.String') => `<parameter name="${name}" type="${type}"/>`;

/** The SQL of the first selected item, the values bound in it, and its result type. */
function first(select: string, values: Record<string, string> = {}, params = '') {
  const { sql, columns } = buildQuery(compileTemplate(q(select, params)), { ...req, values });
  const text = sql.text.slice('SELECT '.length, sql.text.indexOf(' AS "c1"'));
  const n = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  return { sql: text, values: sql.values.slice(0, n), type: columns[0].type };
}

/** The 400 of a select list, without the path of the select element. */
function reason(select: string, params = ''): string {
  try {
    compileTemplate(q(select, params));
  } catch (e) {
    if (e instanceof QmlError) return e.message.replace('/qml/statement/query/select/', '');
    throw e;
  }
  throw new Error('accepted');
}

const C = '<column alias="D">name</column>';
const I = '<column alias="D">iterationInfo.identifier.iterationId</column>';
const T = '<column alias="D">thePersistInfo.createStamp</column>';
const B = '<column alias="D">iterationInfo.latest</column>';
const P = '<column alias="L">quantity.amount</column>';
const k = (t: string | number, type = '') => `<constant${type ? ` type="${type}"` : ''}>${t}</constant>`;
const f = (name: string, ...args: string[]) => `<function name="${name}">${args.join('')}</function>`;
const target = (name: string) => `<parameterTarget name="${name}"/>`;

describe('QML functions: variants chosen by the arguments', () => {
  it('adds days to a timestamp in either order, and subtracts them', () => {
    const days = "* interval '1 day')";
    expect(first(f('ADD', k('1.5'), T))).toEqual({
      sql: `("t1"."created_at" + ($1::float8) ${days}`,
      values: [1.5],
      type: 'timestamp',
    });
    expect(first(f('SUBTRACT', T, k(2))).sql).toBe(`("t1"."created_at" - ($1::float8) ${days}`);
  });

  it("applies Oracle's rules for a start that is not a positive constant: 0 is 1, negatives count from the end", () => {
    expect(first(f('SUBSTR', C, k(-3)))).toEqual({
      sql: 'substring("t1m"."name" from (CASE WHEN ($1::int8)::int4 > 0 THEN ($2::int8)::int4 WHEN ($3::int8)::int4 = 0 THEN 1 ELSE length("t1m"."name") + ($4::int8)::int4 + 1 END))',
      values: [-3, -3, -3, -3],
      type: 'string',
    });
  });

  it('cuts a timestamp to its day, or to a unit bound as a value', () => {
    expect(first(f('TRUNC', T))).toEqual({
      sql: `date_trunc('day', "t1"."created_at", 'UTC')`,
      values: [],
      type: 'timestamp',
    });
    expect(first(f('TRUNC', T, k('mon')))).toEqual({
      sql: `date_trunc($1::text, "t1"."created_at", 'UTC')`,
      values: ['month'],
      type: 'timestamp',
    });
  });

  it('keeps the type of a long: ROUND, TRUNC, CEIL, ABS, SUM and MOD of longs are longs', () => {
    expect(first(f('ROUND', I, k(-1)))).toMatchObject({ sql: expect.stringMatching(/::int8$/), type: 'long' });
    for (const fn of ['TRUNC', 'CEIL', 'ABS', 'SUM']) expect(first(f(fn, I)).type).toBe('long');
    expect(first(f('MOD', P, k(2)))).toEqual({
      sql: 'mod(("t2"."quantity")::numeric, nullif(($1::float8)::numeric, 0))::float8',
      values: [2],
      type: 'double',
    });
  });

  it('makes a numeric result a double when a parameter turns out a decimal', () => {
    const params = param('n');
    expect(first(f('ADD', I, target('n')), { n: '2' }, params)).toMatchObject({ values: [2], type: 'long' });
    expect(first(f('ADD', I, target('n')), { n: '2.5' }, params)).toMatchObject({ values: [2.5], type: 'double' });
  });

  it('writes text of a timestamp as ISO-8601, of a number with a number format, of text as it is', () => {
    expect(first(f('TO_CHAR', T)).sql).toBe(
      `to_char(("t1"."created_at" AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    );
    expect(first(f('TO_CHAR', P, k('FM990.00')))).toEqual({
      sql: 'to_char("t2"."quantity", $1::text)',
      values: ['FM990.00'],
      type: 'string',
    });
    expect(first(f('TO_CHAR', C)).sql).toBe('"t1m"."name"');
    // A constant without a type: its format says it is a date.
    expect(first(f('TO_CHAR', k('2026-03-02T10:00:00Z'), k('DD.MM.YYYY')))).toMatchObject({
      values: ['2026-03-02T10:00:00.000Z', 'DD.MM.YYYY'],
    });
  });

  it('reads a constant timestamp when the template is planned, and text columns in SQL', () => {
    expect(first(f('TO_DATE', k('2026-03-02')))).toEqual({
      sql: '$1::timestamptz',
      values: ['2026-03-02T00:00:00.000Z'],
      type: 'timestamp',
    });
    expect(first(f('TO_DATE', C))).toMatchObject({
      sql: expect.stringMatching(/^\(CASE WHEN "t1m"."name" ~\* '.*' THEN \("t1m"."name"\)::timestamptz ELSE/),
      type: 'timestamp',
    });
  });

  it('types DECODE and NVL by their typed arguments, or by type attributes of constants', () => {
    expect(first(f('DECODE', C, k('a'), k(1, 'java.lang.Long'), k(0))).type).toBe('long');
    expect(first(f('NVL', I, k('2.5'))).type).toBe('double');
    expect(first(f('TO_NUMBER', I))).toEqual({ sql: '"t1"."iteration"', values: [], type: 'long' });
  });

  it('counts rows with COUNT and no argument', () => {
    expect(first(f('COUNT'))).toEqual({ sql: 'count(*)::int8', values: [], type: 'long' });
  });

  it('binds formats and day names: the template text never reaches the SQL', () => {
    const { sql, values } = first(
      f('CONCAT', f('TO_CHAR', T, k('"x\'y" YYYY')), f('NEXT_DAY', T, k('Sunday')), f('TO_DATE', C, k('YYYY'))),
    );
    expect(sql).not.toMatch(/x'y|YYYY|Sunday/);
    expect(values).toEqual(expect.arrayContaining(['"x\'y" YYYY', 0, 'YYYY']));
  });
});

describe('QML functions: a wrong argument is a 400 naming the function and the argument', () => {
  it.each([
    ['too few arguments', f('SUBSTRING', C), 'function[1]: SUBSTRING takes 2 to 3 argument(s), found 1'],
    [
      'too many, by another name',
      f('SUB_STRING', C, k(1), k(2), k(3)),
      'function[1]: SUB_STRING takes 2 to 3 argument(s), found 4',
    ],
    ['arguments to SYSDATE', f('SYSDATE', C), 'function[1]: SYSDATE takes 0 argument(s), found 1'],
    ['text for a number', f('ROUND', C), 'function[1]/column[1]: ROUND needs a number as argument 1, not a string'],
    [
      'a boolean for a number',
      f('MULTIPLY', I, B),
      'function[1]/column[2]: MULTIPLY needs a number as argument 2, not a boolean',
    ],
    [
      'text for a timestamp',
      f('ADD_MONTHS', C, k(1)),
      'function[1]/column[1]: ADD_MONTHS needs a timestamp as argument 1, not a string',
    ],
    [
      'a number for a timestamp',
      f('LAST_DAY', I),
      'function[1]/column[1]: LAST_DAY needs a timestamp as argument 1, not a long',
    ],
    [
      'two timestamps to ADD',
      f('ADD', T, T),
      'function[1]: ADD takes a timestamp and a number of days, or two numbers',
    ],
    [
      'days minus a timestamp',
      f('SUBTRACT', k(1), T),
      'function[1]: SUBTRACT takes a timestamp and a number of days, two timestamps, or two numbers',
    ],
    [
      'a constant that is no number',
      f('DIVIDE', I, k('two')),
      'function[1]/constant[1]: DIVIDE needs a number as argument 2, not "two"',
    ],
    [
      'a constant that is no timestamp',
      f('TO_DATE', k('yesterday')),
      'function[1]/constant[1]: TO_DATE needs an ISO-8601 timestamp as argument 1, not "yesterday"',
    ],
    [
      'mixed types',
      f('NVL', T, C),
      'function[1]/column[2]: NVL needs arguments of one type: argument 2 is a string, argument 1 a timestamp',
    ],
    [
      'mixed DECODE results',
      f('DECODE', C, k('a'), I, k('b'), T),
      'function[1]/column[3]: DECODE needs arguments of one type: argument 5 is a timestamp, argument 3 a long',
    ],
    [
      'a format of text',
      f('TO_CHAR', C, k('YYYY')),
      'function[1]/column[1]: TO_CHAR with a format needs a timestamp or a number as argument 1, not a string',
    ],
    [
      'a timestamp to read',
      f('TO_DATE', T, k('YYYY')),
      'function[1]/column[1]: TO_DATE with a format reads a text, not a timestamp',
    ],
    [
      'MAX of booleans',
      f('MAX', B),
      'function[1]/column[1]: MAX needs a number, text or timestamp as argument 1, not a boolean',
    ],
    [
      'a boolean to TO_NUMBER',
      f('TO_NUMBER', B),
      'function[1]/column[1]: TO_NUMBER needs a number as argument 1, not a boolean',
    ],
  ])('%s', (_what, select, message) => {
    expect(reason(select)).toBe(message);
  });

  it.each([
    [
      'an unknown date element',
      f('TO_CHAR', T, k('YYYY-XX')),
      'function[1]/constant[1]: TO_CHAR needs a date format as argument 2: unknown element at "XX" (position 6)',
    ],
    [
      'an unknown number element',
      f('TO_CHAR', P, k('99X')),
      'function[1]/constant[1]: TO_CHAR needs a number format as argument 2: unknown element at "X" (position 3)',
    ],
    [
      'a format to read with',
      f('TO_DATE', C, k('DD.QQQ.YYYY%')),
      'function[1]/constant[1]: TO_DATE needs a date format as argument 2: unknown element at "%" (position 12)',
    ],
    [
      'a unit TRUNC has not',
      f('TRUNC', T, k('WW')),
      'function[1]/constant[1]: TRUNC needs a unit (a format such as MM) as argument 2: "WW" is not a unit TRUNC supports (YYYY, Q, MM, IW, DD, HH, MI and their Oracle synonyms)',
    ],
    [
      'a day that is none',
      f('NEXT_DAY', T, k('FUNDAY')),
      'function[1]/constant[1]: NEXT_DAY needs a day of the week as argument 2: "FUNDAY" is not a day of the week (MONDAY … SUNDAY, or MON … SUN)',
    ],
    [
      'a format as a column',
      f('TO_DATE', C, C),
      'function[1]/column[2]: TO_DATE needs a date format as argument 2, written as a constant',
    ],
    [
      'a format as a macro',
      f('TO_CHAR', T, '<constant isMacro="true">CURRENT_USER_NAME</constant>'),
      'function[1]/constant[1]: TO_CHAR needs a format as argument 2, written as a constant',
    ],
  ])('%s', (_what, select, message) => {
    expect(reason(select)).toBe(message);
  });

  it('rejects a format given as a parameter, which would change per request', () => {
    expect(reason(f('TO_CHAR', T, target('fmt')), param('fmt'))).toBe(
      'function[1]/parameterTarget[1]: TO_CHAR needs a format as argument 2, written as a constant',
    );
  });
});
