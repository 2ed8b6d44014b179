import { QError, type ParsedQuery } from './q-model.js';

const NUL = '\u0000';

function quoted(text: string): string {
  const json = JSON.stringify(text);
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}

/**
 * Refuses a NUL character in any key or string value of the parsed `q` objects: PostgreSQL text
 * and jsonb cannot hold one (22021, 22P05), so it would otherwise fail in the database. The
 * message names the key, as the parser's messages do.
 */
export function refuseNul(query: ParsedQuery): void {
  query.parts.forEach((part, i) => check(part.normalized, `q[${i}]`));
}

function check(value: unknown, at: string): void {
  if (typeof value === 'string') {
    if (value.includes(NUL)) throw new QError(`${at}: ${quoted(value)} holds a NUL character, which text cannot`);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => check(v, `${at}[${i}]`));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (key.includes(NUL)) throw new QError(`${at}: the key ${quoted(key)} holds a NUL character, which text cannot`);
      check(v, `${at}.${key}`);
    }
  }
}
