/**
 * The `q` texts of the original gateway's clients: JSON whose strings and keys may also be
 * single-quoted (`{'name':'lego*.prt'}`, as its documentation writes them in URLs). Nothing else
 * is relaxed: keys are quoted, no trailing commas, no comments, no bare words but true, false and
 * null, numbers as JSON writes them. In a single-quoted string `\'` is a quote, `"` is itself;
 * the other escapes are JSON's. Strict JSON reads as JSON.parse reads it.
 */

/** Arrays and objects nest at most this deep (as in a JSON body). */
export const MAX_RELAXED_DEPTH = 64;

/** Why a text is not relaxed JSON, and where (0-based position in the text). */
export class RelaxedJsonError extends Error {
  constructor(
    readonly position: number,
    readonly reason: string,
  ) {
    super(`${reason} at position ${position}`);
    this.name = 'RelaxedJsonError';
  }
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /true|false|null/y;

/** Reads one relaxed-JSON value filling the whole text (surrounding white space allowed). */
export function readRelaxedJson(text: string): unknown {
  const reader = new Reader(text);
  const value = reader.value(0);
  reader.space();
  if (reader.i < text.length) reader.fail('unexpected text after the value');
  return value;
}

class Reader {
  i = 0;
  constructor(private readonly s: string) {}

  fail(reason: string): never {
    throw new RelaxedJsonError(this.i, reason);
  }

  space(): void {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i])) this.i++;
  }

  value(depth: number): unknown {
    this.space();
    const c = this.s[this.i];
    if (c === undefined) this.fail('a value expected, the text ended');
    if (c === '{' || c === '[') {
      if (depth >= MAX_RELAXED_DEPTH) this.fail(`nested deeper than ${MAX_RELAXED_DEPTH} levels`);
      return c === '{' ? this.object(depth + 1) : this.array(depth + 1);
    }
    if (c === '"' || c === "'") return this.string();
    return this.scalar();
  }

  private scalar(): unknown {
    for (const re of [NUMBER, WORD]) {
      re.lastIndex = this.i;
      const m = re.exec(this.s);
      if (m) {
        this.i += m[0].length;
        return JSON.parse(m[0]) as unknown;
      }
    }
    return this.fail(`unexpected ${JSON.stringify(this.s[this.i])}: a value expected`);
  }

  private object(depth: number): Record<string, unknown> {
    this.i++;
    const out: Record<string, unknown> = {};
    this.space();
    if (this.s[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      this.space();
      const q = this.s[this.i];
      if (q !== '"' && q !== "'") this.fail('a quoted key expected');
      const key = this.string();
      this.space();
      if (this.s[this.i] !== ':') this.fail('":" expected after a key');
      this.i++;
      // As JSON.parse: an own property, whatever the key (`__proto__` too); the last one counts.
      Object.defineProperty(out, key, {
        value: this.value(depth),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.space();
      const c = this.s[this.i++];
      if (c === '}') return out;
      if (c !== ',') {
        this.i--;
        this.fail('"," or "}" expected');
      }
    }
  }

  private array(depth: number): unknown[] {
    this.i++;
    const out: unknown[] = [];
    this.space();
    if (this.s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.space();
      const c = this.s[this.i++];
      if (c === ']') return out;
      if (c !== ',') {
        this.i--;
        this.fail('"," or "]" expected');
      }
    }
  }

  private string(): string {
    const quote = this.s[this.i++];
    let out = '';
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) this.fail('an unterminated string');
      if (c === quote) {
        this.i++;
        return out;
      }
      if (c < ' ') this.fail('a control character in a string (write it as an escape)');
      if (c !== '\\') {
        out += c;
        this.i++;
        continue;
      }
      const e = this.s[this.i + 1];
      if (e === 'u') {
        const hex = this.s.slice(this.i + 2, this.i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('\\u needs four hex digits');
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += 6;
      } else if (e !== undefined && Object.hasOwn(ESCAPES, e) && (e !== "'" || quote === "'")) {
        out += ESCAPES[e];
        this.i += 2;
      } else {
        this.fail(`an unknown escape \\${e ?? ''}`);
      }
    }
  }
}
