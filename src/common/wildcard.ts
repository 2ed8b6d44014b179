/**
 * The one translation of user wildcards to SQL LIKE patterns (escape character `\`). In every
 * mode `*` stands for any run of characters and `?` for one character; the modes differ in the
 * rest:
 *
 * - `q` (the `q` query language): `\*` and `\?` are the characters themselves; `%`, `_` and every
 *   other backslash are ordinary characters.
 * - `names` (name filters such as `GET /reports?name=`): `%`, `_` and `\` are ordinary characters;
 *   there is no way to match `*` or `?` alone.
 * - `qml` (values of QML `like` conditions): `%` and `_` keep their SQL meaning, as in the
 *   templates users bring; only the backslash is an ordinary character.
 */
export type WildcardMode = 'q' | 'names' | 'qml';

interface Token {
  literal: string;
  wildcard?: '*' | '?';
}

function tokens(text: string, mode: WildcardMode): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const next = text[i + 1];
    if (mode === 'q' && ch === '\\' && (next === '*' || next === '?')) {
      out.push({ literal: next });
      i++;
    } else if (ch === '*' || ch === '?') {
      out.push({ literal: '', wildcard: ch });
    } else {
      out.push({ literal: ch });
    }
  }
  return out;
}

/** The SQL LIKE pattern (escape character `\`) for a text with wildcards. */
export function likePattern(text: string, mode: WildcardMode): string {
  const ordinary = mode === 'qml' ? /\\/g : /[\\%_]/g;
  return tokens(text, mode)
    .map((t) => {
      if (t.wildcard === '*') return '%';
      if (t.wildcard === '?') return '_';
      return t.literal.replace(ordinary, (c) => `\\${c}`);
    })
    .join('');
}

/** Whether a `q` string has a wildcard (then it is matched by LIKE, else exactly). */
export function hasWildcard(text: string): boolean {
  return tokens(text, 'q').some((t) => t.wildcard !== undefined);
}

/** The string a wildcard-free `q` value stands for (`\*` → `*`, `\?` → `?`). */
export function literalOf(text: string): string {
  return tokens(text, 'q')
    .map((t) => t.wildcard ?? t.literal)
    .join('');
}
