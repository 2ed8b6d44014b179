const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * An ISO-8601 date or timestamp (`2026-01-01`, `2026-01-01T10:00Z`, `…T10:00:00.5+02:00`)
 * as a UTC ISO string; null when the text is not one or names a day or time that does not
 * exist. A timestamp without a zone is UTC.
 */
export function parseIsoTimestamp(text: string): string | null {
  const m = ISO_RE.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  let offset = 'Z';
  if (zone !== 'Z') {
    const zm = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
    if (!zm) return null;
    const [, sign, zh, zmin = '00'] = zm;
    if (Number(zh) > 23 || Number(zmin) > 59) return null;
    offset = `${sign}${zh}:${zmin}`;
  }
  const ms = (frac.slice(1) + '000').slice(0, 3);
  const time = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset}`);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
