import { buildQuery, compileTemplate } from '../qml-compiler.js';
import { listFunctions } from './functions.js';
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

/** The SQL of the first selected item, the values bound in it, and its result type. */
function first(select: string, values: Record<string, string> = {}, params = '') {
  const { sql, columns } = buildQuery(compileTemplate(q(select, params)), { ...req, values });
  const text = sql.text.slice('SELECT '.length, sql.text.indexOf(' AS "c1"'));
  const n = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  return { sql: text, values: sql.values.slice(0, n), type: columns[0].type };
}

const C = '<column alias="D">name</column>';
const S = '<column alias="D">state.state</column>';
const I = '<column alias="D">iterationInfo.identifier.iterationId</column>';
const T = '<column alias="D">thePersistInfo.createStamp</column>';
const M = '<column alias="D">thePersistInfo.modifyStamp</column>';
const P = '<column alias="L">quantity.amount</column>';
const k = (t: string | number) => `<constant>${t}</constant>`;
const f = (name: string, ...args: string[]) => `<function name="${name}">${args.join('')}</function>`;

/** One call of every function: its SQL (every value bound), the values and the result type. */
const CASES: [string, string, string, string, unknown[]][] = [
  ['UPPER', f('UPPER', C), 'string', 'upper("t1m"."name")', []],
  ['LOWER', f('lower', I), 'string', 'lower(("t1"."iteration")::text)', []],
  ['INITCAP', f('INITCAP', C), 'string', 'initcap("t1m"."name")', []],
  ['CONCAT', f('CONCAT', C, k('-'), I), 'string', 'concat("t1m"."name", $1::text, ("t1"."iteration")::text)', ['-']],
  [
    'SUBSTRING',
    f('SUB_STRING', C, k(2), k(3)),
    'string',
    'substring("t1m"."name" from ($1::int8)::int4 for greatest(($2::int8)::int4, 0))',
    [2, 3],
  ],
  ['LENGTH', f('LENGTH', C), 'long', 'length("t1m"."name")::int8', []],
  ['INSTR', f('INSTR', C, k('unit')), 'long', 'strpos("t1m"."name", $1::text)::int8', ['unit']],
  ['TRIM', f('TRIM', C), 'string', 'btrim("t1m"."name")', []],
  ['LTRIM', f('LTRIM', C, k('0')), 'string', 'ltrim("t1m"."name", $1::text)', ['0']],
  ['RTRIM', f('RTRIM', C), 'string', 'rtrim("t1m"."name")', []],
  ['REPLACE', f('REPLACE', C, k('a')), 'string', 'replace("t1m"."name", $1::text, \'\')', ['a']],
  [
    'TRANSLATE',
    f('TRANSLATE', C, k('ab'), k('xy')),
    'string',
    'translate("t1m"."name", $1::text, $2::text)',
    ['ab', 'xy'],
  ],
  [
    'LPAD',
    f('LPAD', I, k(5), k('0')),
    'string',
    'lpad(("t1"."iteration")::text, (least($1::int8, 4000))::int4, $2::text)',
    [5, '0'],
  ],
  ['RPAD', f('RPAD', C, k(10)), 'string', 'rpad("t1m"."name", (least($1::int8, 4000))::int4, \' \')', [10]],
  ['ADD', f('ADD', I, k(2)), 'long', '("t1"."iteration" + $1::int8)', [2]],
  [
    'SUBTRACT',
    f('SUBTRACT', M, T),
    'double',
    '(extract(epoch from ("t1"."modified_at" - "t1"."created_at")) / 86400)::float8',
    [],
  ],
  ['MULTIPLY', f('MULTIPLY', I, k('2.5')), 'double', '("t1"."iteration" * $1::float8)', [2.5]],
  ['DIVIDE', f('DIVIDE', I, k(4)), 'double', '(("t1"."iteration")::float8 / nullif(($1::int8)::float8, 0))', [4]],
  ['MOD', f('MOD', I, k(3)), 'long', 'mod("t1"."iteration", nullif($1::int8, 0))', [3]],
  ['ABS', f('ABS', P), 'double', 'abs("t2"."quantity")', []],
  ['SIGN', f('SIGN', I), 'long', 'sign("t1"."iteration")::int8', []],
  ['ROUND', f('ROUND', P, k(1)), 'double', 'round(("t2"."quantity")::numeric, ($1::int8)::int4)::float8', [1]],
  ['TRUNC', f('TRUNC', P), 'double', 'trunc(("t2"."quantity")::numeric)::float8', []],
  ['CEIL', f('CEIL', P), 'double', 'ceil("t2"."quantity")', []],
  ['FLOOR', f('FLOOR', I), 'long', '"t1"."iteration"', []],
  ['POWER', f('POWER', I, k(2)), 'double', 'power(("t1"."iteration")::float8, ($1::int8)::float8)', [2]],
  ['SQRT', f('SQRT', P), 'double', 'sqrt(CASE WHEN "t2"."quantity" >= 0 THEN ("t2"."quantity")::float8 END)', []],
  ['SYSDATE', f('SYSDATE'), 'timestamp', 'statement_timestamp()', []],
  [
    'ADD_MONTHS',
    f('ADD_MONTHS', T, k(-1)),
    'timestamp',
    '((("t1"."created_at" AT TIME ZONE \'UTC\') + make_interval(months => ($1::int8)::int4)) AT TIME ZONE \'UTC\')',
    [-1],
  ],
  [
    'MONTHS_BETWEEN',
    f('MONTHS_BETWEEN', M, T),
    'double',
    '(((date_part(\'year\', ("t1"."modified_at" AT TIME ZONE \'UTC\')) - date_part(\'year\', ("t1"."created_at" AT TIME ZONE \'UTC\'))) * 12 + date_part(\'month\', ("t1"."modified_at" AT TIME ZONE \'UTC\')) - date_part(\'month\', ("t1"."created_at" AT TIME ZONE \'UTC\')))::float8 + (CASE WHEN date_part(\'day\', ("t1"."modified_at" AT TIME ZONE \'UTC\')) = date_part(\'day\', ("t1"."created_at" AT TIME ZONE \'UTC\')) OR (date_part(\'day\', ("t1"."modified_at" AT TIME ZONE \'UTC\') + interval \'1 day\') = 1 AND date_part(\'day\', ("t1"."created_at" AT TIME ZONE \'UTC\') + interval \'1 day\') = 1) THEN 0 ELSE (extract(epoch from (("t1"."modified_at" AT TIME ZONE \'UTC\') - date_trunc(\'month\', ("t1"."modified_at" AT TIME ZONE \'UTC\')))) - extract(epoch from (("t1"."created_at" AT TIME ZONE \'UTC\') - date_trunc(\'month\', ("t1"."created_at" AT TIME ZONE \'UTC\'))))) / (31 * 86400) END)::float8)',
    [],
  ],
  [
    'LAST_DAY',
    f('LAST_DAY', T),
    'timestamp',
    "(((\"t1\".\"created_at\" AT TIME ZONE 'UTC') + (date_trunc('month', (\"t1\".\"created_at\" AT TIME ZONE 'UTC')) + interval '1 month' - interval '1 day' - date_trunc('day', (\"t1\".\"created_at\" AT TIME ZONE 'UTC')))) AT TIME ZONE 'UTC')",
    [],
  ],
  [
    'NEXT_DAY',
    f('NEXT_DAY', T, k('mon')),
    'timestamp',
    '((("t1"."created_at" AT TIME ZONE \'UTC\') + make_interval(days => (($1::int8 - extract(dow from ("t1"."created_at" AT TIME ZONE \'UTC\'))::int4 + 6) % 7 + 1)::int4)) AT TIME ZONE \'UTC\')',
    [1],
  ],
  [
    'TO_CHAR',
    f('TO_CHAR', T, k('YYYY-MM-DD"T"HH24:MI')),
    'string',
    'to_char(("t1"."created_at" AT TIME ZONE \'UTC\'), $1::text)',
    ['YYYY-MM-DD"T"HH24:MI'],
  ],
  [
    'TO_DATE',
    f('TO_DATE', C, k('DD.MM.YYYY')),
    'timestamp',
    '(to_timestamp("t1m"."name", $1::text)::timestamp AT TIME ZONE \'UTC\')',
    ['DD.MM.YYYY'],
  ],
  [
    'TO_NUMBER',
    f('TO_NUMBER', C),
    'double',
    '(CASE WHEN "t1m"."name" ~ \'^[[:space:]]*[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?[[:space:]]*$\' THEN ("t1m"."name")::float8 END)',
    [],
  ],
  ['NVL', f('NVL', P, k(0)), 'double', 'coalesce("t2"."quantity", $1::float8)', [0]],
  [
    'NVL2',
    f('NVL2', P, k('y'), k('n')),
    'string',
    '(CASE WHEN "t2"."quantity" IS NOT NULL THEN $1::text ELSE $2::text END)',
    ['y', 'n'],
  ],
  ['COALESCE', f('COALESCE', C, S, k('none')), 'string', 'coalesce("t1m"."name", "t1"."state", $1::text)', ['none']],
  [
    'GREATEST',
    f('GREATEST', T, M),
    'timestamp',
    '(CASE WHEN num_nulls("t1"."created_at", "t1"."modified_at") = 0 THEN greatest("t1"."created_at", "t1"."modified_at") END)',
    [],
  ],
  [
    'LEAST',
    f('LEAST', I, k(2)),
    'long',
    '(CASE WHEN num_nulls("t1"."iteration", $1::int8) = 0 THEN least("t1"."iteration", $2::int8) END)',
    [2, 2],
  ],
  [
    'DECODE',
    f('DECODE', S, k('INWORK'), k(1), k('RELEASED'), k(2), k(0)),
    'string',
    '(CASE WHEN "t1"."state" IS NOT DISTINCT FROM $1::text THEN $2::text WHEN "t1"."state" IS NOT DISTINCT FROM $3::text THEN $4::text ELSE $5::text END)',
    ['INWORK', '1', 'RELEASED', '2', '0'],
  ],
  ['COUNT', f('COUNT', C), 'long', 'count("t1m"."name")::int8', []],
  ['MIN', f('MINIMUM', T), 'timestamp', 'min("t1"."created_at")', []],
  ['MAX', f('MAX', C), 'string', 'max("t1m"."name")', []],
  ['SUM', f('SUM', P), 'double', 'sum("t2"."quantity")::float8', []],
  ['AVG', f('AVERAGE', I), 'double', 'avg("t1"."iteration")::float8', []],
  [
    'STDDEV',
    f('STDDEV', I),
    'double',
    '(CASE WHEN count("t1"."iteration") = 1 THEN 0 ELSE stddev_samp("t1"."iteration") END)::float8',
    [],
  ],
  [
    'VARIANCE',
    f('VARIANCE', P),
    'double',
    '(CASE WHEN count("t2"."quantity") = 1 THEN 0 ELSE var_samp("t2"."quantity") END)::float8',
    [],
  ],
];

describe('QML functions compiled to SQL', () => {
  it('covers every function of the registry', () => {
    expect(CASES.map((c) => c[0]).sort()).toEqual(
      listFunctions()
        .map((d) => d.name)
        .sort(),
    );
  });

  it.each(CASES)('%s', (_name, select, type, sql, values) => {
    expect(first(select)).toEqual({ sql, values, type });
  });
});

describe('constants written with xml:space="preserve"', () => {
  it('bind their white space as written (a separator of CONCAT)', () => {
    const sep = '<constant type="java.lang.String" xml:space="preserve"> - </constant>';
    expect(first(f('CONCAT', C, sep, I)).values).toEqual([' - ']);
    expect(first(f('CONCAT', C, k(' - '), I)).values).toEqual(['-']);
  });
});
