import type { FunctionName } from './functions.js';
import { dateFormat, dayOfWeek, FormatError, numberFormat, truncUnit } from './function-formats.js';
import type { InternalFunction } from '../sql/sql-functions.js';
import { isNumeric, type ValueType } from '../qml-types.js';

/** What the validator knows of one argument of a call. */
export interface ArgInfo {
  /** Its own type; null for a constant or parameter, which takes the type its place expects. */
  type: ValueType | null;
  /** The `type` attribute of a constant or the declared type of a parameter (a hint only). */
  hint: ValueType | null;
  /** The text of a plain constant (not a macro): formats and day names must be one. */
  constant: string | null;
}

/** How a constant or parameter argument is planned: as a value of `type`, or as a setting. */
export type ArgPlan = { type: ValueType } | { setting: string | number };

/**
 * A call as the validator resolved it, kept in the template and reused by every plan: which SQL
 * function renders it, the type each argument takes, the settings made from format constants
 * (bound as values), and the result type.
 */
export interface CallTyping {
  fn: InternalFunction;
  args: ArgPlan[];
  /** Order of the arguments in the SQL call, when not as written (a number of days first). */
  order?: number[];
  /** The result type. With `widen`, planning makes it double where one of those arguments is. */
  result: ValueType;
  widen?: number[];
}

/** Throws the 400 for argument `arg` (0-based; null: the call itself). */
export type ArgFail = (arg: number | null, reason: string) => never;

const an = (t: ValueType) => (t === 'oid' ? 'an OID' : `a ${t}`);

/** One call being typed: `F` is the function's name as the template writes it. */
class Call {
  readonly args: ArgPlan[];

  constructor(
    readonly F: string,
    readonly a: readonly ArgInfo[],
    private readonly fail: ArgFail,
  ) {
    this.args = a.map(() => ({ type: 'string' }));
  }

  t(i: number): ValueType | null {
    return this.a[i]?.type ?? null;
  }

  bad(i: number | null, reason: string): never {
    return this.fail(i, reason);
  }

  /** Any value, as text (numbers and timestamps are converted). */
  text(...is: number[]): void {
    for (const i of is) if (i < this.a.length) this.args[i] = { type: 'string' };
  }

  /** A number; a constant there takes `otherwise` (long: a decimal text makes it a double). */
  number(i: number, otherwise: ValueType = 'double'): ValueType {
    const t = this.t(i);
    if (t !== null && !isNumeric(t)) this.bad(i, `${this.F} needs a number as argument ${i + 1}, not ${an(t)}`);
    this.args[i] = { type: t ?? otherwise };
    return t ?? otherwise;
  }

  timestamp(i: number): void {
    const t = this.t(i);
    if (t !== null && t !== 'timestamp') {
      this.bad(i, `${this.F} needs a timestamp as argument ${i + 1}, not ${an(t)}`);
    }
    this.args[i] = { type: 'timestamp' };
  }

  /** A constant text made into a setting at compile time (a format, a unit, a day name). */
  setting(i: number, what: string, make: (text: string) => string | number): void {
    const text = this.a[i].constant;
    if (text === null) this.bad(i, `${this.F} needs ${what} as argument ${i + 1}, written as a constant`);
    try {
      this.args[i] = { setting: make(text!) };
    } catch (e) {
      if (e instanceof FormatError) this.bad(i, `${this.F} needs ${what} as argument ${i + 1}: ${e.message}`);
      throw e;
    }
  }

  /** Numbers whose types decide the result's: long if every one is long, else double. */
  numbers(is: number[]): { result: ValueType; widen: number[] } {
    const known = is.map((i) => this.t(i)).find((t) => t !== null) ?? 'double';
    const types = is.map((i) => this.number(i, known));
    return { result: types.every((t) => t === 'long') ? 'long' : 'double', widen: is };
  }

  /** Arguments that must have one type (NVL, COALESCE, GREATEST, LEAST, DECODE): string if none is known. */
  same(is: number[]): { result: ValueType; widen?: number[] } {
    let type: ValueType | null = null;
    let from = -1;
    for (const i of is) {
      const t = this.t(i);
      if (t === null) continue;
      if (type === null || type === t) [type, from] = [t, i];
      else if (isNumeric(type) && isNumeric(t)) type = 'double';
      else if ((type === 'oid' || type === 'string') && (t === 'oid' || t === 'string')) type = 'string';
      else
        this.bad(
          i,
          `${this.F} needs arguments of one type: argument ${i + 1} is ${an(t)}, argument ${from + 1} ${an(type)}`,
        );
    }
    // None has a type of its own: a constant's type attribute tells (DECODE results written as numbers).
    const result = type ?? is.map((i) => this.a[i].hint).find((h) => h !== null) ?? 'string';
    for (const i of is) this.args[i] = { type: result };
    return isNumeric(result) ? { result, widen: is } : { result };
  }
}

type Typing = Omit<CallTyping, 'args'>;

/** Types one call of function `name` (written `F`), or throws the 400 for the argument at fault. */
export function typeCall(name: FunctionName, F: string, a: readonly ArgInfo[], fail: ArgFail): CallTyping {
  const c = new Call(F, a, fail);
  const typing = TYPINGS[name](c);
  return { ...typing, args: c.args };
}

const n = (c: Call) => c.a.length;
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

const textFn =
  (fn: InternalFunction, result: ValueType = 'string') =>
  (c: Call): Typing => {
    c.text(...range(0, n(c)));
    return { fn, result };
  };

/** ADD and SUBTRACT: two numbers, a timestamp and days, or (SUBTRACT) two timestamps. */
function arithmetic(c: Call, subtract: boolean): Typing {
  const [ta, tb] = [c.t(0), c.t(1)];
  if (ta === 'timestamp' && tb === 'timestamp') {
    if (!subtract) c.bad(null, `${c.F} takes a timestamp and a number of days, or two numbers`);
    c.timestamp(0);
    c.timestamp(1);
    return { fn: 'DAYS_BETWEEN', result: 'double' };
  }
  if (ta === 'timestamp' || tb === 'timestamp') {
    if (tb === 'timestamp' && subtract) {
      c.bad(null, `${c.F} takes a timestamp and a number of days, two timestamps, or two numbers`);
    }
    const ts = ta === 'timestamp' ? 0 : 1;
    c.timestamp(ts);
    c.number(1 - ts);
    // A number of days is a double however it is written (a constant 1.5 is half a day more).
    c.args[1 - ts] = { type: 'double' };
    return { fn: subtract ? 'SUBTRACT_DAYS' : 'ADD_DAYS', result: 'timestamp', order: [ts, 1 - ts] };
  }
  return { fn: subtract ? 'SUBTRACT' : 'ADD', ...c.numbers([0, 1]) };
}

/** The type the first argument of TO_CHAR and TRUNC has, or its hint, for choosing a variant. */
const typeOrHint = (c: Call, i: number) => c.t(i) ?? c.a[i].hint;

const TYPINGS: Record<FunctionName, (c: Call) => Typing> = {
  UPPER: textFn('UPPER'),
  LOWER: textFn('LOWER'),
  INITCAP: textFn('INITCAP'),
  CONCAT: textFn('CONCAT'),
  LENGTH: textFn('LENGTH', 'long'),
  INSTR: textFn('INSTR', 'long'),
  TRIM: textFn('TRIM'),
  LTRIM: textFn('LTRIM'),
  RTRIM: textFn('RTRIM'),
  REPLACE: textFn('REPLACE'),
  TRANSLATE: textFn('TRANSLATE'),
  SUBSTRING: (c) => {
    c.text(0);
    for (const i of range(1, n(c))) c.number(i, 'long');
    // A start written as a positive constant needs none of Oracle's rules for 0 and negatives.
    const positive = /^\s*\+?0*[1-9]\d*\s*$/.test(c.a[1].constant ?? '');
    return { fn: positive ? 'SUBSTRING' : 'SUBSTRING_ANY', result: 'string' };
  },
  LPAD: (c) => pad(c, 'LPAD'),
  RPAD: (c) => pad(c, 'RPAD'),
  ADD: (c) => arithmetic(c, false),
  SUBTRACT: (c) => arithmetic(c, true),
  MULTIPLY: (c) => ({ fn: 'MULTIPLY', ...c.numbers([0, 1]) }),
  DIVIDE: (c) => {
    c.numbers([0, 1]);
    return { fn: 'DIVIDE', result: 'double' };
  },
  MOD: (c) => ({ fn: 'MOD', ...c.numbers([0, 1]) }),
  ABS: (c) => ({ fn: 'ABS', ...c.numbers([0]) }),
  SIGN: (c) => {
    c.number(0);
    return { fn: 'SIGN', result: 'long' };
  },
  CEIL: (c) => ({ fn: 'CEIL', ...c.numbers([0]) }),
  FLOOR: (c) => ({ fn: 'FLOOR', ...c.numbers([0]) }),
  ROUND: (c) => rounding(c, 'ROUND'),
  TRUNC: (c) => {
    if (typeOrHint(c, 0) !== 'timestamp') return rounding(c, 'TRUNC');
    c.timestamp(0);
    if (n(c) > 1) c.setting(1, 'a unit (a format such as MM)', truncUnit);
    return { fn: 'TRUNC_DATE', result: 'timestamp' };
  },
  POWER: (c) => {
    c.numbers([0, 1]);
    return { fn: 'POWER', result: 'double' };
  },
  SQRT: (c) => {
    c.number(0);
    return { fn: 'SQRT', result: 'double' };
  },
  SYSDATE: () => ({ fn: 'SYSDATE', result: 'timestamp' }),
  ADD_MONTHS: (c) => {
    c.timestamp(0);
    c.number(1, 'long');
    return { fn: 'ADD_MONTHS', result: 'timestamp' };
  },
  MONTHS_BETWEEN: (c) => {
    c.timestamp(0);
    c.timestamp(1);
    return { fn: 'MONTHS_BETWEEN', result: 'double' };
  },
  LAST_DAY: (c) => {
    c.timestamp(0);
    return { fn: 'LAST_DAY', result: 'timestamp' };
  },
  NEXT_DAY: (c) => {
    c.timestamp(0);
    c.setting(1, 'a day of the week', dayOfWeek);
    return { fn: 'NEXT_DAY', result: 'timestamp' };
  },
  TO_CHAR: toChar,
  TO_DATE: (c) => {
    const t = c.t(0);
    if (n(c) === 2) {
      if (t === 'timestamp') c.bad(0, `${c.F} with a format reads a text, not a timestamp`);
      c.text(0);
      c.setting(1, 'a date format', dateFormat);
      return { fn: 'TO_DATE', result: 'timestamp' };
    }
    if (t === null || t === 'timestamp') {
      // A constant is read as an ISO-8601 timestamp when the query is planned.
      c.timestamp(0);
      return { fn: 'SAME', result: 'timestamp' };
    }
    if (t !== 'string' && t !== 'oid') c.bad(0, `${c.F} needs a text as argument 1, not ${an(t)}`);
    c.text(0);
    return { fn: 'TO_DATE_ISO', result: 'timestamp' };
  },
  TO_NUMBER: (c) => {
    const t = c.t(0);
    if (t === 'string' || t === 'oid') {
      c.text(0);
      return { fn: 'TO_NUMBER', result: 'double' };
    }
    return { fn: 'SAME', ...c.numbers([0]) };
  },
  NVL: (c) => ({ fn: 'COALESCE', ...c.same([0, 1]) }),
  COALESCE: (c) => ({ fn: 'COALESCE', ...c.same(range(0, n(c))) }),
  GREATEST: (c) => ({ fn: 'GREATEST', ...c.same(range(0, n(c))) }),
  LEAST: (c) => ({ fn: 'LEAST', ...c.same(range(0, n(c))) }),
  NVL2: (c) => {
    if (c.t(0) === null) c.text(0);
    else c.args[0] = { type: c.t(0)! };
    return { fn: 'NVL2', ...c.same([1, 2]) };
  },
  DECODE: (c) => {
    // DECODE(value, search, result [, search, result] … [, default])
    const searches = range(1, n(c)).filter((i) => i % 2 === 1 && i < n(c) - 1);
    const results = range(2, n(c)).filter((i) => i % 2 === 0 || i === n(c) - 1);
    c.same([0, ...searches]);
    return { fn: 'DECODE', ...c.same(results) };
  },
  COUNT: (c) => {
    // Counted as it is: only whether it is null matters.
    if (n(c) === 1) c.args[0] = { type: c.t(0) ?? 'string' };
    return { fn: n(c) === 0 ? 'COUNT_ALL' : 'COUNT', result: 'long' };
  },
  MIN: (c) => minMax(c, 'MIN'),
  MAX: (c) => minMax(c, 'MAX'),
  SUM: (c) => ({ fn: 'SUM', ...c.numbers([0]) }),
  AVG: (c) => {
    c.number(0);
    return { fn: 'AVG', result: 'double' };
  },
  STDDEV: (c) => {
    c.number(0);
    return { fn: 'STDDEV', result: 'double' };
  },
  VARIANCE: (c) => {
    c.number(0);
    return { fn: 'VARIANCE', result: 'double' };
  },
};

function pad(c: Call, fn: 'LPAD' | 'RPAD'): Typing {
  c.text(0, 2);
  c.number(1, 'long');
  return { fn, result: 'string' };
}

/** ROUND and TRUNC of a number, to `places` decimals (none by default; negative: tens …). */
function rounding(c: Call, fn: 'ROUND' | 'TRUNC'): Typing {
  const typing = c.numbers([0]);
  if (n(c) > 1) c.number(1, 'long');
  return { fn, ...typing };
}

function minMax(c: Call, fn: 'MIN' | 'MAX'): Typing {
  const t = c.t(0);
  if (t === 'boolean') c.bad(0, `${c.F} needs a number, text or timestamp as argument 1, not a boolean`);
  const type = t ?? c.a[0].hint ?? 'string';
  c.args[0] = { type };
  return { fn, result: type };
}

/** TO_CHAR: a timestamp or number with a format; anything without one (timestamps as ISO-8601). */
function toChar(c: Call): Typing {
  const t = typeOrHint(c, 0);
  if (n(c) === 1) {
    if (t === 'timestamp') {
      c.timestamp(0);
      return { fn: 'TO_CHAR_ISO', result: 'string' };
    }
    c.text(0);
    return { fn: 'SAME_TEXT', result: 'string' };
  }
  const format = c.a[1].constant;
  if (format === null) c.bad(1, `${c.F} needs a format as argument 2, written as a constant`);
  // A constant without a type: the format tells whether it is a date or a number.
  const dateLike = t === 'timestamp' || (t === null && parses(format!, dateFormat));
  if (dateLike) {
    c.timestamp(0);
    c.setting(1, 'a date format', dateFormat);
    return { fn: 'TO_CHAR_DATE', result: 'string' };
  }
  if (t !== null && !isNumeric(t)) {
    c.bad(0, `${c.F} with a format needs a timestamp or a number as argument 1, not ${an(t)}`);
  }
  c.number(0);
  c.setting(1, 'a number format', numberFormat);
  return { fn: 'TO_CHAR_NUMBER', result: 'string' };
}

function parses(text: string, make: (t: string) => unknown): boolean {
  try {
    make(text);
    return true;
  } catch {
    return false;
  }
}
