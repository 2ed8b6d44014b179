/**
 * The Oracle-style format texts of TO_CHAR, TO_DATE, TRUNC and NEXT_DAY, as templates write them
 * for Windchill's Oracle database, checked against a whitelist and spelled for PostgreSQL. The
 * result is bound as a value, never written into the SQL. Each function returns the PostgreSQL
 * text, or throws FormatError saying what is wrong (the caller names the function and argument).
 */

export class FormatError extends Error {}

/** Longest accepted format text: real formats are short; a long one is a mistake or an attack. */
export const MAX_FORMAT_LENGTH = 64;

/**
 * Datetime elements: Oracle spelling → PostgreSQL spelling. Elements that print words (month and
 * day names, AM/PM, BC/AD, roman months, ordinal suffixes) keep the case they are written in,
 * as in Oracle (`Month` → `March`, `MONTH` → `MARCH`).
 */
const DATE_ELEMENTS: Record<string, string> = {
  'Y,YYY': 'Y,YYY',
  YYYY: 'YYYY',
  YYY: 'YYY',
  YY: 'YY',
  Y: 'Y',
  // RR years: two digits read into the nearest century, PostgreSQL's rule for YY.
  RRRR: 'YYYY',
  RR: 'YY',
  IYYY: 'IYYY',
  IYY: 'IYY',
  IY: 'IY',
  Q: 'Q',
  MM: 'MM',
  MONTH: 'MONTH',
  MON: 'MON',
  RM: 'RM',
  WW: 'WW',
  IW: 'IW',
  W: 'W',
  DDD: 'DDD',
  DD: 'DD',
  D: 'D',
  DAY: 'DAY',
  DY: 'DY',
  J: 'J',
  HH24: 'HH24',
  HH12: 'HH12',
  HH: 'HH12',
  MI: 'MI',
  SSSSS: 'SSSS',
  SS: 'SS',
  // Oracle's fractions go to nanoseconds; PostgreSQL keeps microseconds.
  FF: 'US',
  FF1: 'FF1',
  FF2: 'FF2',
  FF3: 'FF3',
  FF4: 'FF4',
  FF5: 'FF5',
  FF6: 'FF6',
  AM: 'AM',
  PM: 'PM',
  'A.M.': 'A.M.',
  'P.M.': 'P.M.',
  AD: 'AD',
  BC: 'BC',
  'A.D.': 'A.D.',
  'B.C.': 'B.C.',
  FM: 'FM',
  FX: 'FX',
  TH: 'TH',
};

/** Elements whose output is a word: their case decides the case of the word. */
const WORDS = new Set(['MONTH', 'MON', 'DAY', 'DY']);
const MARKERS = new Set(['AM', 'PM', 'A.M.', 'P.M.', 'AD', 'BC', 'A.D.', 'B.C.', 'RM', 'TH']);

/** Number elements (TO_CHAR of a number), the same in both databases. */
const NUMBER_ELEMENTS = ['EEEE', 'FM', 'MI', 'PR', '9', '0', '.', ',', 'D', 'G', 'S', '$'];

/** Characters a format may hold between elements, copied as they are. */
const PUNCTUATION = new Set([' ', '-', '/', ',', '.', ';', ':']);

const byLength = (names: string[]) => [...names].sort((a, b) => b.length - a.length);
const DATE_NAMES = byLength(Object.keys(DATE_ELEMENTS));

function checked(format: string): string {
  if (format.trim() === '') throw new FormatError('the format is empty');
  if (format.length > MAX_FORMAT_LENGTH) {
    throw new FormatError(`the format is longer than ${MAX_FORMAT_LENGTH} characters`);
  }
  return format;
}

/** `Month` → `Month`, `MONTH` → `MONTH`, anything else → lower case (Oracle's rule). */
function wordCase(written: string, pg: string): string {
  if (written === written.toUpperCase()) return pg;
  if (written[0] === written[0].toUpperCase()) return pg[0] + pg.slice(1).toLowerCase();
  return pg.toLowerCase();
}

/** A datetime format (TO_CHAR of a timestamp, TO_DATE) in PostgreSQL's spelling. */
export function dateFormat(format: string): string {
  const f = checked(format);
  let out = '';
  let hasElement = false;
  let fill = false;
  for (let i = 0; i < f.length;) {
    const c = f[i];
    if (c === '"') {
      const end = f.indexOf('"', i + 1);
      if (end < 0) throw new FormatError(`the quoted text at position ${i + 1} is not closed`);
      const text = f.slice(i, end + 1);
      // PostgreSQL reads a backslash in quoted text as an escape; Oracle does not.
      if (text.includes('\\')) throw new FormatError('quoted text cannot hold a backslash');
      out += text;
      i = end + 1;
      continue;
    }
    const rest = f.slice(i).toUpperCase();
    const name = DATE_NAMES.find((n) => rest.startsWith(n));
    if (name === 'FM') {
      fill = !fill;
      i += 2;
      continue;
    }
    if (name === 'FX') {
      // PostgreSQL takes FX only first, for the whole format.
      if (out !== '') throw new FormatError('FX must come first');
      out += 'FX';
      i += 2;
      continue;
    }
    if (name) {
      const written = f.slice(i, i + name.length);
      const pg = DATE_ELEMENTS[name];
      // Oracle's FM holds for the rest of the format (until the next FM); PostgreSQL's for one element.
      if (WORDS.has(name)) out += (fill ? 'FM' : '') + wordCase(written, pg);
      else if (MARKERS.has(name)) out += written[0] === written[0].toUpperCase() ? pg : pg.toLowerCase();
      else out += (fill ? 'FM' : '') + pg;
      hasElement = true;
      i += name.length;
      continue;
    }
    if (PUNCTUATION.has(c)) {
      out += c;
      i++;
      continue;
    }
    throw new FormatError(`unknown element at "${f.slice(i, i + 8)}" (position ${i + 1})`);
  }
  if (!hasElement) throw new FormatError('the format has no date or time element');
  return out;
}

/** A number format (TO_CHAR of a number): 9, 0, `.`, `,`, D, G, S, MI, PR, FM, EEEE, `$`. */
export function numberFormat(format: string): string {
  const f = checked(format).toUpperCase();
  let out = '';
  for (let i = 0; i < f.length;) {
    const name = NUMBER_ELEMENTS.find((n) => f.startsWith(n, i));
    if (!name) throw new FormatError(`unknown element at "${format.slice(i, i + 8)}" (position ${i + 1})`);
    out += name;
    i += name.length;
  }
  if (!/[90]/.test(out)) throw new FormatError('a number format needs a digit (9 or 0)');
  return out;
}

/** TRUNC of a timestamp: Oracle's unit names → PostgreSQL's date_trunc fields. */
const TRUNC_UNITS: Record<string, string> = {
  CC: 'century',
  SCC: 'century',
  SYYYY: 'year',
  YYYY: 'year',
  YEAR: 'year',
  SYEAR: 'year',
  YYY: 'year',
  YY: 'year',
  Y: 'year',
  Q: 'quarter',
  MONTH: 'month',
  MON: 'month',
  MM: 'month',
  RM: 'month',
  IW: 'week',
  DDD: 'day',
  DD: 'day',
  J: 'day',
  HH: 'hour',
  HH12: 'hour',
  HH24: 'hour',
  MI: 'minute',
};

/** The date_trunc field of a TRUNC format (`MM` → `month`). */
export function truncUnit(format: string): string {
  const unit = TRUNC_UNITS[checked(format).trim().toUpperCase()];
  if (!unit) {
    throw new FormatError(
      `"${format}" is not a unit TRUNC supports (YYYY, Q, MM, IW, DD, HH, MI and their Oracle synonyms)`,
    );
  }
  return unit;
}

const DAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];

/** A day name of NEXT_DAY (`MONDAY`, `Mon` …) as PostgreSQL's day of the week (Sunday 0). */
export function dayOfWeek(name: string): number {
  const n = checked(name).trim().toUpperCase();
  const day = DAYS.findIndex((d) => d === n || d.slice(0, 3) === n);
  if (day < 0) throw new FormatError(`"${name}" is not a day of the week (MONDAY … SUNDAY, or MON … SUN)`);
  return day;
}
