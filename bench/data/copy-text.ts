/**
 * Encoding of values in PostgreSQL's COPY text format: columns separated by tabs, rows by
 * newlines, NULL as \N, and backslash, tab, newline and carriage return escaped.
 */
const NEEDS_ESCAPE = /[\\\t\n\r]/;

export const NULL = '\\N';

export function text(value: string | null): string {
  if (value === null) return NULL;
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** bytea in hex form; the backslash of `\x` is itself escaped for COPY. */
export function bytea(bytes: Buffer): string {
  return '\\\\x' + bytes.toString('hex');
}

const DAY_MS = 86_400_000;
const dayCache = new Map<number, string>();

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/**
 * `YYYY-MM-DD hh:mm:ss.mmm+00` for a time in epoch milliseconds. Millions of timestamps are
 * written, and Date#toISOString per value costs seconds, so the date part is cached per day.
 */
export function timestamp(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  let date = dayCache.get(day);
  if (date === undefined) {
    date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    dayCache.set(day, date);
  }
  let rest = ms - day * DAY_MS;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const milli = rest - s * 1000;
  return `${date} ${pad2(h)}:${pad2(m)}:${pad2(s)}.${milli < 10 ? '00' + milli : milli < 100 ? '0' + milli : milli}+00`;
}

/**
 * A growing byte buffer of COPY rows. Appending each row's bytes at once keeps the strings
 * short-lived; concatenating them into one big string instead made the garbage collector
 * copy millions of live rope nodes and cost more than generating the data.
 */
export class RowBuffer {
  private buf: Buffer;
  private pos = 0;

  constructor(capacity = 1 << 20) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  add(row: string): void {
    // Rows are mostly ASCII: 3 bytes per UTF-16 unit is the worst case of UTF-8.
    const worst = row.length * 3;
    if (this.pos + worst > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + worst));
      this.buf.copy(bigger, 0, 0, this.pos);
      this.buf = bigger;
    }
    this.pos += this.buf.write(row, this.pos, 'utf8');
  }

  get length(): number {
    return this.pos;
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}
