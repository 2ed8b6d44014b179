/**
 * Wildcards of the `q` language: `*` any run of characters, `?` one character, `\*` and `\?`
 * the characters themselves. `%`, `_` and every other backslash are ordinary characters, so
 * they are escaped for SQL LIKE (whose escape character is the backslash).
 */

interface Token {
  literal: string;
  wildcard?: '*' | '?';
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const next = text[i + 1];
    if (ch === '\\' && (next === '*' || next === '?')) {
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

export function hasWildcard(text: string): boolean {
  return tokens(text).some((t) => t.wildcard !== undefined);
}

/** The string a wildcard-free value stands for (`\*` → `*`, `\?` → `?`). */
export function literalOf(text: string): string {
  return tokens(text)
    .map((t) => t.wildcard ?? t.literal)
    .join('');
}

/** The SQL LIKE pattern (escape character `\`) for a `q` string. */
export function likePattern(text: string): string {
  return tokens(text)
    .map((t) => {
      if (t.wildcard === '*') return '%';
      if (t.wildcard === '?') return '_';
      return t.literal.replace(/[\\%_]/g, (c) => `\\${c}`);
    })
    .join('');
}
