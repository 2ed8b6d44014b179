/**
 * JavaScript strings may hold a UTF-16 surrogate without its partner (JSON's "\ud800" makes one),
 * but such a string is not Unicode text: PostgreSQL refuses it (22P02, 22021) and it cannot be
 * encoded as UTF-8. Every string from JSON is checked before it reaches SQL, so the caller gets a
 * 400 naming where it is instead of a 500.
 */

export interface LoneSurrogate {
  /** The code unit, as "U+D800". */
  codeUnit: string;
  /** Where it is: "name", "q[0].name", "items[2]"; "" for the value itself. */
  path: string;
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const wellFormed: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (s) => (s as string & { isWellFormed(): boolean }).isWellFormed()
    : (s) => !LONE.test(s);

/** The first lone surrogate in a string, or in the keys and strings of a parsed JSON value. */
export function firstLoneSurrogate(value: unknown, path = ''): LoneSurrogate | null {
  const found = firstStringWhere(value, (s) => !wellFormed(s), path);
  if (!found) return null;
  return { codeUnit: codeUnitOf(found.text), path: found.inKey ? `${found.path} (in the name)` : found.path };
}

/** A string found in a parsed JSON value: a value, or the name of an object's member. */
export interface FoundString {
  text: string;
  /** The value's path, or the member's whose name it is: "name", "q[0].name", "items[2]"; "" for the value itself. */
  path: string;
  /** The path of the object or array holding it ("" at the top). */
  parent: string;
  inKey: boolean;
}

/** The first string (in document order) of a parsed JSON value, key or value, that passes `test`. */
export function firstStringWhere(value: unknown, test: (s: string) => boolean, path = ''): FoundString | null {
  // Iterative: a parsed value may nest deeper than the stack allows recursion.
  const stack: [unknown, string, string][] = [[value, path, '']];
  while (stack.length > 0) {
    const [v, at, parent] = stack.pop()!;
    if (typeof v === 'string') {
      if (test(v)) return { text: v, path: at, parent, inKey: false };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${at}[${i}]`, at]);
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        const keyPath = at === '' ? printable(key) : `${at}.${printable(key)}`;
        if (test(key)) return { text: key, path: keyPath, parent: at, inKey: true };
        stack.push([child, keyPath, at]);
      }
    }
  }
  return null;
}

/** "request body contains a lone surrogate (U+D800) at message" */
export function loneSurrogateMessage(what: string, found: LoneSurrogate): string {
  return `${what} contains a lone surrogate (${found.codeUnit})${found.path ? ` at ${found.path}` : ''}`;
}

function codeUnitOf(s: string): string {
  const m = LONE.exec(s)!;
  return `U+${m[0].charCodeAt(0).toString(16).toUpperCase()}`;
}

/** A key as it may be shown in a message: its lone surrogates written as \uXXXX escapes. */
function printable(key: string): string {
  return key.replace(new RegExp(LONE.source, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}
