import type { FunctionName } from './functions.js';

export interface FunctionNote {
  args: string;
  returns: string;
  about: string;
}

/**
 * What each function does and returns, for the reference (docs/qml-reference.md); names,
 * argument counts and aliases: functions.ts; types: function-types.ts.
 */
export const FUNCTION_NOTES: Readonly<Record<FunctionName, FunctionNote>> = {
  UPPER: { args: 'text', returns: 'string', about: 'upper case' },
  LOWER: { args: 'text', returns: 'string', about: 'lower case' },
  INITCAP: { args: 'text', returns: 'string', about: 'each word with a capital first letter, the rest lower case' },
  CONCAT: { args: 'text, text, …', returns: 'string', about: 'joins its arguments (numbers and dates as text)' },
  SUBSTRING: {
    args: 'text, start [, length]',
    returns: 'string',
    about:
      'part of a text: `start` counts from 1 (0 is 1, a negative start counts from the end); without `length`, to the end; a length below 1 gives ""',
  },
  LENGTH: { args: 'text', returns: 'long', about: 'number of characters' },
  INSTR: { args: 'text, part', returns: 'long', about: 'where `part` first occurs in the text (from 1), 0 if nowhere' },
  TRIM: { args: 'text', returns: 'string', about: 'without spaces at either end' },
  LTRIM: {
    args: 'text [, characters]',
    returns: 'string',
    about: 'without spaces (or the given characters) at the start',
  },
  RTRIM: {
    args: 'text [, characters]',
    returns: 'string',
    about: 'without spaces (or the given characters) at the end',
  },
  REPLACE: {
    args: 'text, search [, replacement]',
    returns: 'string',
    about: 'every `search` replaced (removed without a replacement)',
  },
  TRANSLATE: {
    args: 'text, from, to',
    returns: 'string',
    about: 'each character of `from` replaced by the one at its place in `to` (removed where `to` is shorter)',
  },
  LPAD: {
    args: 'text, length [, fill]',
    returns: 'string',
    about: 'filled on the left (with spaces by default) or cut to `length` characters (at most 4000)',
  },
  RPAD: {
    args: 'text, length [, fill]',
    returns: 'string',
    about: 'filled on the right (with spaces by default) or cut to `length` characters (at most 4000)',
  },
  ADD: {
    args: 'number, number | timestamp, days',
    returns: 'long, double or timestamp',
    about: 'sum; or a timestamp plus a number of days (fractions allowed, either order)',
  },
  SUBTRACT: {
    args: 'number, number | timestamp, days | timestamp, timestamp',
    returns: 'long, double or timestamp',
    about: 'difference; a timestamp minus a number of days; or the days between two timestamps (a double)',
  },
  MULTIPLY: { args: 'number, number', returns: 'long or double', about: 'product (long for two longs)' },
  DIVIDE: { args: 'number, number', returns: 'double', about: 'quotient; null when dividing by zero' },
  MOD: {
    args: 'number, number',
    returns: 'long or double',
    about: 'remainder, with the sign of the first number; null for a zero divisor',
  },
  ABS: { args: 'number', returns: 'its type', about: 'absolute value' },
  SIGN: { args: 'number', returns: 'long', about: '-1, 0 or 1' },
  ROUND: {
    args: 'number [, places]',
    returns: 'its type',
    about: 'rounded to `places` decimals (0 by default; negative: to tens, hundreds …), halves away from zero',
  },
  TRUNC: {
    args: 'number [, places] | timestamp [, unit]',
    returns: 'its type',
    about:
      'a number cut to `places` decimals; a timestamp cut to the start of its day, or of the unit (`YYYY`, `Q`, `MM`, `IW`, `DD`, `HH`, `MI`), in UTC',
  },
  CEIL: { args: 'number', returns: 'its type', about: 'smallest whole number not below it' },
  FLOOR: { args: 'number', returns: 'its type', about: 'largest whole number not above it' },
  POWER: { args: 'number, exponent', returns: 'double', about: 'the number raised to the exponent' },
  SQRT: { args: 'number', returns: 'double', about: 'square root; null for a negative number' },
  SYSDATE: { args: '(none)', returns: 'timestamp', about: 'the time the query started' },
  ADD_MONTHS: {
    args: 'timestamp, months',
    returns: 'timestamp',
    about:
      'the timestamp some months later (earlier if negative), in UTC; a day past the new month’s end becomes its last day',
  },
  MONTHS_BETWEEN: {
    args: 'timestamp, timestamp',
    returns: 'double',
    about:
      'months from the second to the first, in UTC: whole when the days of month match, else a fraction of 31 days',
  },
  LAST_DAY: { args: 'timestamp', returns: 'timestamp', about: 'the last day of its month, at the same time (UTC)' },
  NEXT_DAY: {
    args: 'timestamp, day name',
    returns: 'timestamp',
    about: 'the next such day (`MONDAY` or `MON` …) after the date, at the same time (UTC); the day name is a constant',
  },
  TO_CHAR: {
    args: 'value [, format]',
    returns: 'string',
    about:
      'text of a value; a timestamp with an Oracle date format (`YYYY-MM-DD HH24:MI`, `DD-MON-YYYY`) in UTC, without one as ISO-8601; a number with a number format (`FM9990.00`). The format is a constant',
  },
  TO_DATE: {
    args: 'text [, format]',
    returns: 'timestamp',
    about:
      'a timestamp read from text in the given Oracle date format (a constant), in UTC; without a format, ISO-8601 (UTC unless it names a zone)',
  },
  TO_NUMBER: { args: 'text', returns: 'double', about: 'the number a text holds; null if it holds none' },
  NVL: { args: 'value, default', returns: 'their type', about: 'the value, or the default where it is null' },
  NVL2: {
    args: 'value, if not null, if null',
    returns: 'their type',
    about: 'the second argument where the value is not null, else the third',
  },
  COALESCE: { args: 'value, value, …', returns: 'their type', about: 'the first argument that is not null' },
  GREATEST: {
    args: 'value, value, …',
    returns: 'their type',
    about: 'the largest argument (texts by their collation); null where one is null, as in Oracle',
  },
  LEAST: {
    args: 'value, value, …',
    returns: 'their type',
    about: 'the smallest argument (texts by their collation); null where one is null, as in Oracle',
  },
  DECODE: {
    args: 'value, search, result [, search, result …] [, default]',
    returns: 'the results’ type',
    about: 'the result of the first search equal to the value (null equals null), else the default or null',
  },
  COUNT: { args: '(none) | value', returns: 'long', about: 'rows; with an argument, rows where it is not null' },
  MIN: { args: 'value', returns: 'its type', about: 'smallest value (numbers, text, timestamps)' },
  MAX: { args: 'value', returns: 'its type', about: 'largest value (numbers, text, timestamps)' },
  SUM: { args: 'number', returns: 'long or double', about: 'sum (long for long values)' },
  AVG: { args: 'number', returns: 'double', about: 'average' },
  STDDEV: { args: 'number', returns: 'double', about: 'standard deviation of the sample (0 for one value)' },
  VARIANCE: { args: 'number', returns: 'double', about: 'variance of the sample (0 for one value)' },
};
