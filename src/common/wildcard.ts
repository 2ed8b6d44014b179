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

/**
 * The bounds of the strings a LIKE pattern (escape character `\`) can match, from its literal
 * prefix: every match is at least `lo` and less than `hi` in byte order (the order of
 * PostgreSQL's `~>=~` and `~<~`, which a `text_pattern_ops` index serves). `hi` is the prefix with
 * its last character made the next one (a last U+10FFFF is dropped first); UTF-8 keeps code point
 * order in bytes. Null when the pattern starts with a wildcard (no prefix) or holds only U+10FFFF
 * before it.
 */
export function likePrefixRange(pattern: string): { lo: string; hi: string } | null {
  const prefix: string[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '%' || ch === '_') break;
    if (ch === '\\') {
      if (i + 1 >= pattern.length) return null;
      i++;
    }
    prefix.push(pattern[i]);
  }
  // Whole code points (a surrogate pair is one), so that the last one can be stepped.
  const points = [...prefix.join('')];
  const lo = points.join('');
  while (points.length) {
    const last = points.pop()!.codePointAt(0)!;
    // The next code point, past the surrogates (never characters of a text) and not past the last.
    const next = last === 0xd7ff ? 0xe000 : last + 1;
    if (next <= 0x10ffff && (next < 0xd800 || next > 0xdfff)) {
      return { lo, hi: points.join('') + String.fromCodePoint(next) };
    }
  }
  return null;
}
