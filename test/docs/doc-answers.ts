/**
 * The answers the documentation shows under its examples, and how a real answer is held to them.
 *
 * A shown answer is JSON, JSON with comments (`jsonc`) or text. `…` stands for what the page does
 * not show: in a text or a JSON string any run of characters (`"requestId": "…"`,
 * `"OR:wt.doc.WTDocument:…"`), as a whole JSON value any value (`"_runtime": "…"`), as an array
 * element any number of elements (`["0000000001", …]`), as an object member (a bare `…` or
 * `"…": "…"`) any further members. Everything else must be equal.
 */

/** The placeholder: written bare or as the string "…". */
export const MORE = '…';

/** Reads a shown JSON answer: JSON plus `//` comments and bare `…` placeholders. */
export function readShownJson(text: string): unknown {
  const p = new Reader(text);
  const value = p.value();
  p.space();
  if (p.i < text.length) p.fail('text after the value');
  return value;
}

class Reader {
  i = 0;
  constructor(private readonly s: string) {}

  fail(what: string): never {
    const line = this.s.slice(0, this.i).split('\n').length;
    throw new Error(`shown JSON, line ${line}: ${what} at "${this.s.slice(this.i, this.i + 30)}"`);
  }

  space(): void {
    for (;;) {
      while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
      if (!this.s.startsWith('//', this.i)) return;
      while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
    }
  }

  value(): unknown {
    this.space();
    const c = this.s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === MORE) {
      this.i++;
      return MORE;
    }
    const m = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.s.slice(this.i));
    if (!m) this.fail('no JSON value');
    this.i += m[0].length;
    return JSON.parse(m[0]) as unknown;
  }

  string(): string {
    const m = /^"(?:[^"\\\n]|\\.)*"/.exec(this.s.slice(this.i));
    if (!m) this.fail('an unterminated string');
    this.i += m[0].length;
    return JSON.parse(m[0]) as string;
  }

  array(): unknown[] {
    this.i++;
    const out: unknown[] = [];
    this.space();
    if (this.s[this.i] === ']') return (this.i++, out);
    for (;;) {
      out.push(this.value());
      this.space();
      const c = this.s[this.i++];
      if (c === ']') return out;
      if (c !== ',') this.fail('"," or "]" expected');
    }
  }

  object(): Record<string, unknown> {
    this.i++;
    const out: Record<string, unknown> = {};
    this.space();
    if (this.s[this.i] === '}') return (this.i++, out);
    for (;;) {
      this.space();
      if (this.s[this.i] === MORE) {
        this.i++;
        out[MORE] = MORE;
      } else {
        if (this.s[this.i] !== '"') this.fail('a member name expected');
        const key = this.string();
        this.space();
        if (this.s[this.i++] !== ':') this.fail('":" expected');
        out[key] = this.value();
      }
      this.space();
      const c = this.s[this.i++];
      if (c === '}') return out;
      if (c !== ',') this.fail('"," or "}" expected');
    }
  }
}

/** A text with `…` placeholders as a regular expression over the whole text. */
function pattern(shown: string): RegExp {
  const parts = shown.split(MORE).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`);
}

/** Whether a text matches a shown text with `…` placeholders. */
export function textMatches(shown: string, actual: string): boolean {
  return shown.includes(MORE) ? pattern(shown).test(actual) : shown === actual;
}

function brief(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 300 ? `${s.slice(0, 300)}…(${s.length} characters)` : s;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where a real JSON answer differs from the shown one: `$.items[0].number: shown "CN-0001", got
 * "CN-0002"`, or null when it matches.
 */
export function jsonDifference(shown: unknown, actual: unknown, path = '$'): string | null {
  if (shown === MORE) return null;
  if (typeof shown === 'string' && shown.includes(MORE)) {
    return typeof actual === 'string' && textMatches(shown, actual)
      ? null
      : `${path}: shown ${brief(shown)}, got ${brief(actual)}`;
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return `${path}: shown an array, got ${brief(actual)}`;
    return arrayDifference(shown, actual, path);
  }
  if (isObject(shown)) {
    if (!isObject(actual)) return `${path}: shown an object, got ${brief(actual)}`;
    for (const [key, value] of Object.entries(shown)) {
      if (key === MORE) continue;
      if (!(key in actual))
        return `${path}: shown "${key}", which the answer lacks (it has ${brief(Object.keys(actual))})`;
      const d = jsonDifference(value, actual[key], `${path}.${key}`);
      if (d) return d;
    }
    const extra = Object.keys(actual).filter((k) => !(k in shown));
    if (extra.length && !(MORE in shown))
      return `${path}: not shown: ${extra.map((k) => `"${k}": ${brief(actual[k])}`).join(', ')}`;
    return null;
  }
  return Object.is(shown, actual) ? null : `${path}: shown ${brief(shown)}, got ${brief(actual)}`;
}

function arrayDifference(shown: unknown[], actual: unknown[], path: string): string | null {
  if (!shown.includes(MORE)) {
    for (let i = 0; i < Math.min(shown.length, actual.length); i++) {
      const d = jsonDifference(shown[i], actual[i], `${path}[${i}]`);
      if (d) return d;
    }
    if (shown.length === actual.length) return null;
    return shown.length > actual.length
      ? `${path}: shown ${shown.length} elements, got ${actual.length}; missing ${brief(shown.slice(actual.length))}`
      : `${path}: shown ${shown.length} elements, got ${actual.length}; not shown ${brief(actual.slice(shown.length))}`;
  }
  // `…` elements stand for any run of elements: match as a glob, element by element.
  const fits = (s: number, a: number): boolean => {
    if (s === shown.length) return a === actual.length;
    if (shown[s] === MORE) {
      for (let k = a; k <= actual.length; k++) if (fits(s + 1, k)) return true;
      return false;
    }
    return a < actual.length && jsonDifference(shown[s], actual[a]) === null && fits(s + 1, a + 1);
  };
  if (fits(0, 0)) return null;
  // The first shown element before a `…` that does not match says most.
  for (let i = 0; i < shown.length && shown[i] !== MORE; i++) {
    const d = i < actual.length ? jsonDifference(shown[i], actual[i], `${path}[${i}]`) : `${path}[${i}]: missing`;
    if (d) return d;
  }
  return `${path}: shown ${brief(shown)}, got ${brief(actual)}`;
}
