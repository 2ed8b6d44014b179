import { join, raw, sql, type Sql } from '../../catalog/sql.js';
import type { ValueType } from '../qml-types.js';

/** PostgreSQL's name of each value type, for casts. */
export const PG_TYPE: Record<ValueType, string> = {
  string: 'text',
  oid: 'text',
  long: 'int8',
  double: 'float8',
  boolean: 'boolean',
  timestamp: 'timestamptz',
};

/** Longest text LPAD and RPAD make (Oracle's VARCHAR2 limit): a huge length cannot exhaust memory. */
export const MAX_PAD_LENGTH = 4000;

/**
 * The SQL of each function a plan calls, from its arguments' SQL (bound values, columns, other
 * calls) and its result type. The QML functions map to these in functions/function-types.ts; the
 * rest are the planner's own (TEXT, ARM_VALUE, OID_ID, the days arithmetic). Dates are computed in UTC, whatever
 * the session's time zone, as macros and results are. Nothing here reads text of a template:
 * formats, units and day names arrive as bound values.
 */
type Render = (a: Sql[], type: ValueType) => Sql;

const cast = (type: ValueType) => raw(`::${PG_TYPE[type]}`);
/** A timestamp as UTC wall-clock time (timestamp without time zone). */
const utc = (x: Sql) => sql`(${x} AT TIME ZONE 'UTC')`;
const NUMBER_TEXT = String.raw`'^[[:space:]]*[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?[[:space:]]*$'`;
const HAS_ZONE = String.raw`'[0-9]:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?[[:space:]]*(z|[+-][0-9]{2}(:?[0-9]{2})?)[[:space:]]*$'`;

/** A whole number for PostgreSQL's int4 arguments (a double is rounded). */
const int4 = (x: Sql) => sql`(${x})::int4`;

const trimFn =
  (name: string): Render =>
  (a) =>
    a.length === 1 ? sql`${raw(name)}(${a[0]})` : sql`${raw(name)}(${a[0]}, ${a[1]})`;

const padFn =
  (name: string): Render =>
  (a) =>
    sql`${raw(name)}(${a[0]}, ${int4(sql`least(${a[1]}, ${raw(String(MAX_PAD_LENGTH))})`)}, ${a[2] ?? raw("' '")})`;

/** Part of a text from `start`, to its end or for a length (a negative length: none). */
function substring(a: Sql[], start: Sql): Sql {
  return a.length === 2
    ? sql`substring(${a[0]} from ${start})`
    : sql`substring(${a[0]} from ${start} for greatest(${int4(a[2])}, 0))`;
}

/** Oracle's STDDEV and VARIANCE: the sample's, and 0 (not null) for a single value. */
const spread =
  (name: string): Render =>
  (a) =>
    sql`(CASE WHEN count(${a[0]}) = 1 THEN 0 ELSE ${raw(name)}(${a[0]}) END)::float8`;

/** ROUND and TRUNC of a number: in numeric, so that halves round away from zero as in Oracle. */
const roundFn =
  (name: string): Render =>
  (a, type) =>
    sql`${raw(name)}((${a[0]})::numeric${a[1] ? sql`, ${int4(a[1])}` : raw('')})${cast(type)}`;

/** Oracle's MONTHS_BETWEEN: whole months when the days match or both are a month's last day. */
function monthsBetween(a: Sql[]): Sql {
  const [x, y] = [utc(a[0]), utc(a[1])];
  const part = (f: string, v: Sql) => sql`date_part('${raw(f)}', ${v})`;
  const lastDay = (v: Sql) => sql`date_part('day', ${v} + interval '1 day') = 1`;
  const intoMonth = (v: Sql) => sql`extract(epoch from (${v} - date_trunc('month', ${v})))`;
  return sql`(((${part('year', x)} - ${part('year', y)}) * 12 + ${part('month', x)} - ${part('month', y)})::float8 + (CASE WHEN ${part('day', x)} = ${part('day', y)} OR (${lastDay(x)} AND ${lastDay(y)}) THEN 0 ELSE (${intoMonth(x)} - ${intoMonth(y)}) / (31 * 86400) END)::float8)`;
}

/** Oracle's DECODE: the result of the first search equal to the value (null equals null). */
function decode(a: Sql[]): Sql {
  const parts: Sql[] = [];
  let i = 1;
  for (; i + 1 < a.length; i += 2) parts.push(sql`WHEN ${a[0]} IS NOT DISTINCT FROM ${a[i]} THEN ${a[i + 1]}`);
  const otherwise = i < a.length ? sql` ELSE ${a[i]}` : raw('');
  return sql`(CASE ${join(parts, ' ')}${otherwise} END)`;
}

export const SQL_FUNCTIONS = {
  SAME: (a) => a[0],
  SAME_TEXT: (a) => a[0],
  TEXT: (a) => sql`(${a[0]})::text`,
  UPPER: (a) => sql`upper(${a[0]})`,
  LOWER: (a) => sql`lower(${a[0]})`,
  INITCAP: (a) => sql`initcap(${a[0]})`,
  CONCAT: (a) => sql`concat(${join(a, ', ')})`,
  SUBSTRING: (a) => substring(a, int4(a[1])),
  // Oracle's start: 0 is 1, a negative one counts from the end.
  SUBSTRING_ANY: (a) =>
    substring(
      a,
      sql`(CASE WHEN ${int4(a[1])} > 0 THEN ${int4(a[1])} WHEN ${int4(a[1])} = 0 THEN 1 ELSE length(${a[0]}) + ${int4(a[1])} + 1 END)`,
    ),
  LENGTH: (a) => sql`length(${a[0]})::int8`,
  INSTR: (a) => sql`strpos(${a[0]}, ${a[1]})::int8`,
  TRIM: (a) => sql`btrim(${a[0]})`,
  LTRIM: trimFn('ltrim'),
  RTRIM: trimFn('rtrim'),
  REPLACE: (a) => sql`replace(${a[0]}, ${a[1]}, ${a[2] ?? raw("''")})`,
  TRANSLATE: (a) => sql`translate(${a[0]}, ${a[1]}, ${a[2]})`,
  LPAD: padFn('lpad'),
  RPAD: padFn('rpad'),
  ADD: (a) => sql`(${a[0]} + ${a[1]})`,
  SUBTRACT: (a) => sql`(${a[0]} - ${a[1]})`,
  ADD_DAYS: (a) => sql`(${a[0]} + (${a[1]}) * interval '1 day')`,
  SUBTRACT_DAYS: (a) => sql`(${a[0]} - (${a[1]}) * interval '1 day')`,
  DAYS_BETWEEN: (a) => sql`(extract(epoch from (${a[0]} - ${a[1]})) / 86400)::float8`,
  MULTIPLY: (a) => sql`(${a[0]} * ${a[1]})`,
  // A zero divisor gives null, never an error: one row must not fail the report.
  DIVIDE: (a) => sql`((${a[0]})::float8 / nullif((${a[1]})::float8, 0))`,
  MOD: (a, type) =>
    type === 'long'
      ? sql`mod(${a[0]}, nullif(${a[1]}, 0))`
      : sql`mod((${a[0]})::numeric, nullif((${a[1]})::numeric, 0))::float8`,
  ABS: (a) => sql`abs(${a[0]})`,
  SIGN: (a) => sql`sign(${a[0]})::int8`,
  CEIL: (a, type) => (type === 'long' ? a[0] : sql`ceil(${a[0]})`),
  FLOOR: (a, type) => (type === 'long' ? a[0] : sql`floor(${a[0]})`),
  ROUND: roundFn('round'),
  TRUNC: roundFn('trunc'),
  TRUNC_DATE: (a) => sql`date_trunc(${a[1] ?? raw("'day'")}, ${a[0]}, 'UTC')`,
  POWER: (a) => sql`power((${a[0]})::float8, (${a[1]})::float8)`,
  // The square root of a negative number is null, as a zero divisor is.
  SQRT: (a) => sql`sqrt(CASE WHEN ${a[0]} >= 0 THEN (${a[0]})::float8 END)`,
  SYSDATE: () => raw('statement_timestamp()'),
  ADD_MONTHS: (a) => sql`((${utc(a[0])} + make_interval(months => ${int4(a[1])})) AT TIME ZONE 'UTC')`,
  MONTHS_BETWEEN: monthsBetween,
  // The month's last day at the same time of day, as Oracle keeps it.
  LAST_DAY: (a) => {
    const x = utc(a[0]);
    return sql`((${x} + (date_trunc('month', ${x}) + interval '1 month' - interval '1 day' - date_trunc('day', ${x}))) AT TIME ZONE 'UTC')`;
  },
  // The first such day after the date (one to seven days later), at the same time of day.
  NEXT_DAY: (a) => {
    const x = utc(a[0]);
    return sql`((${x} + make_interval(days => ((${a[1]} - extract(dow from ${x})::int4 + 6) % 7 + 1)::int4)) AT TIME ZONE 'UTC')`;
  },
  TO_CHAR_ISO: (a) => sql`to_char(${utc(a[0])}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  TO_CHAR_DATE: (a) => sql`to_char(${utc(a[0])}, ${a[1]})`,
  TO_CHAR_NUMBER: (a) => sql`to_char(${a[0]}, ${a[1]})`,
  TO_DATE: (a) => sql`(to_timestamp(${a[0]}, ${a[1]})::timestamp AT TIME ZONE 'UTC')`,
  // ISO-8601 text; without a zone it is UTC.
  TO_DATE_ISO: (a) =>
    sql`(CASE WHEN ${a[0]} ~* ${raw(HAS_ZONE)} THEN (${a[0]})::timestamptz ELSE ((${a[0]})::timestamp AT TIME ZONE 'UTC') END)`,
  // Text that is not a number gives null, as a JSON value of the wrong kind does.
  TO_NUMBER: (a) => sql`(CASE WHEN ${a[0]} ~ ${raw(NUMBER_TEXT)} THEN (${a[0]})::float8 END)`,
  COALESCE: (a) => sql`coalesce(${join(a, ', ')})`,
  // Oracle's: null as soon as one argument is null (PostgreSQL's own would skip nulls).
  GREATEST: (a) => sql`(CASE WHEN num_nulls(${join(a, ', ')}) = 0 THEN greatest(${join(a, ', ')}) END)`,
  LEAST: (a) => sql`(CASE WHEN num_nulls(${join(a, ', ')}) = 0 THEN least(${join(a, ', ')}) END)`,
  // The value of the first (key, value) pair whose key is not null: the value of the one arm of
  // a union that matched (its id the key), null where none did.
  ARM_VALUE: (a) =>
    sql`(CASE ${join(
      a.flatMap((x, i) => (i % 2 ? [] : [sql`WHEN ${x} IS NOT NULL THEN ${a[i + 1]}`])),
      ' ',
    )} END)`,
  // The id of an OID (`OR:<class>:<id>`), null for text of another form: the planner's, for
  // finding the row an OID names by its table's key.
  OID_ID: (a) => sql`(CASE WHEN ${a[0]} ~ '^OR:[^:]+:[0-9]{1,18}$' THEN split_part(${a[0]}, ':', 3)::int8 END)`,
  NVL2: (a) => sql`(CASE WHEN ${a[0]} IS NOT NULL THEN ${a[1]} ELSE ${a[2]} END)`,
  DECODE: decode,
  COUNT: (a) => sql`count(${a[0]})::int8`,
  COUNT_ALL: () => raw('count(*)::int8'),
  MIN: (a) => sql`min(${a[0]})`,
  MAX: (a) => sql`max(${a[0]})`,
  SUM: (a, type) => sql`sum(${a[0]})${cast(type)}`,
  AVG: (a) => sql`avg(${a[0]})::float8`,
  STDDEV: spread('stddev_samp'),
  VARIANCE: spread('var_samp'),
} satisfies Record<string, Render>;

export type InternalFunction = keyof typeof SQL_FUNCTIONS;

/** The SQL of one call; `type` is its result type (string for the planner's own calls). */
export function renderCall(fn: InternalFunction, args: Sql[], type: ValueType = 'string'): Sql {
  return (SQL_FUNCTIONS[fn] as Render)(args, type);
}
