const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * The instants a timestamp may name, in UTC: PostgreSQL refuses year 0000 (22008) and the
 * `+010000-…` form JavaScript writes past year 9999, so a value outside these years (also one
 * pushed outside by its offset, `0001-01-01T00:00+01:00`) is the caller's error, not a 500.
 */
const MIN_TIME = Date.parse('0001-01-01T00:00:00.000Z');
const MAX_TIME = Date.parse('9999-12-31T23:59:59.999Z');
export const TIMESTAMP_RANGE = 'the years 0001 to 9999 (UTC)';

/** A UTC ISO string, or what is wrong with the text (to follow the quoted value in a message). */
export type TimestampResult = { iso: string } | { problem: string };

const NOT_ISO = { problem: 'is not an ISO-8601 timestamp' };

function daysInMonth(year: number, month: number): number {
  // Date.UTC maps years 0 to 99 to 1900 to 1999, whose leap years differ from year 0's.
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/**
 * An ISO-8601 date or timestamp (`2026-01-01`, `2026-01-01T10:00Z`, `…T10:00:00.5+02:00`)
 * as a UTC ISO string. Refused when the text is not one, names a day or time that does not
 * exist, or lies outside the years 0001 to 9999 in UTC. A timestamp without a zone is UTC.
 */
export function parseIsoTimestamp(text: string): TimestampResult {
  const m = ISO_RE.exec(text);
  if (!m) return NOT_ISO;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return NOT_ISO;
  if (day > daysInMonth(year, month)) return NOT_ISO;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return NOT_ISO;
  let offset = 'Z';
  if (zone !== 'Z') {
    const zm = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
    if (!zm) return NOT_ISO;
    const [, sign, zh, zmin = '00'] = zm;
    if (Number(zh) > 23 || Number(zmin) > 59) return NOT_ISO;
    offset = `${sign}${zh}:${zmin}`;
  }
  const ms = (frac.slice(1) + '000').slice(0, 3);
  const time = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset}`);
  if (Number.isNaN(time)) return NOT_ISO;
  if (time < MIN_TIME || time > MAX_TIME) return { problem: `is outside ${TIMESTAMP_RANGE}` };
  return { iso: new Date(time).toISOString() };
}
