/**
 * SQL text with bound values, the one way the compilers (QML, `q`) write SQL: a fragment is the
 * text between its values, so fragments nest and keep every value a `$n` parameter. Identifiers
 * reach it only through `ident`, which takes names of the storage whitelist (storage.ts) and
 * generated aliases. No dependency on the database client: the services run `text` and `values`.
 */
export class Sql {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];

  constructor(strings: readonly string[], values: readonly unknown[]) {
    // Nested fragments are flattened: the result is strings[i] value[i] strings[i+1] …
    const s: string[] = [strings[0]];
    const v: unknown[] = [];
    values.forEach((value, i) => {
      if (value instanceof Sql) {
        s[s.length - 1] += value.strings[0];
        value.values.forEach((inner, j) => {
          v.push(inner);
          s.push(value.strings[j + 1]);
        });
        s[s.length - 1] += strings[i + 1];
      } else {
        v.push(value);
        s.push(strings[i + 1]);
      }
    });
    this.strings = s;
    this.values = v;
  }

  /** The text with `$1`, `$2` … for the values. */
  get text(): string {
    return this.strings.reduce((out, s, i) => out + '$' + i + s);
  }
}

/** A fragment: `${x}` is a bound value, or a nested fragment when x is an Sql. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql([...strings], values);
}

/** Text taken as is: only constants of the code (keywords, operators, whitelisted names). */
export function raw(text: string): Sql {
  return new Sql([text], []);
}

export const empty = raw('');

/** Fragments (or values) separated by `separator`. */
export function join(items: readonly unknown[], separator = ',', prefix = '', suffix = ''): Sql {
  if (items.length === 0) return raw(prefix + suffix);
  const strings = [prefix, ...items.slice(1).map(() => separator), suffix];
  return new Sql(strings, items);
}

const NAME = /^[a-z][a-z0-9_]*$/;

/** A quoted identifier (`"name"` or `"alias"."column"`); anything not a plain name throws. */
export function ident(...parts: string[]): Sql {
  for (const p of parts) if (!NAME.test(p)) throw new Error(`not an identifier: ${p}`);
  return raw(parts.map((p) => `"${p}"`).join('.'));
}
