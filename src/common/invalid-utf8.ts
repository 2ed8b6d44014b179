import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { parse, type ParsedUrlQuery } from 'node:querystring';
import { BadRequestException } from '@nestjs/common';
import { firstStringWhere } from './lone-surrogate.js';

/**
 * Bytes that are not UTF-8 would be decoded into U+FFFD (the replacement character) by the body
 * parsers and by the URL's query parser, and stored so: the caller's text silently changed. They
 * are refused instead, with where they are. The checks are the platform's (Buffer's isUtf8 and
 * TextDecoder's fatal mode); only where the first bad byte is, is found here.
 */

/** An error of a body parser's `verify`: answered 400 with its message (http-error.filter.ts). */
export class InvalidUtf8Error extends Error {
  readonly type = 'encoding.invalid';
}

/**
 * The byte offset where the first sequence that is not UTF-8 starts, or null when all is UTF-8.
 * A streaming decoder fails on a prefix exactly when the prefix holds a bad sequence (one cut
 * off at its end is only held back), so the shortest failing prefix is found by bisection; the
 * characters decoded before it tell where the bad sequence starts.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number | null {
  if (isUtf8(bytes)) return null;
  const fails = (n: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream: true });
      return false;
    } catch {
      return true;
    }
  };
  let lo = 0;
  // Not fails(lo); fails(hi), or hi is the whole body, ending in a sequence cut off (held back).
  let hi = bytes.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (fails(mid)) hi = mid;
    else lo = mid;
  }
  // ignoreBOM keeps a leading BOM in the text, so the text's length in UTF-8 is the bytes read.
  const before = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, lo), {
    stream: true,
  });
  return Buffer.byteLength(before);
}

/** Refuses a text body (XML) that is not UTF-8, naming the byte. */
export function checkTextUtf8(bytes: Buffer): void {
  const at = firstInvalidUtf8(bytes);
  if (at !== null) throw new InvalidUtf8Error(`request body is not valid UTF-8 at byte ${at}`);
}

/** Refuses a JSON body that is not UTF-8, naming the byte and, when it lies in a string, where. */
export function checkJsonUtf8(bytes: Buffer): void {
  const at = firstInvalidUtf8(bytes);
  if (at === null) return;
  const where = jsonPathAt(bytes, at);
  throw new InvalidUtf8Error(`request body is not valid UTF-8 at byte ${at}${where ? ` (${where})` : ''}`);
}

/** Refuses a form body that is not UTF-8, in its bytes or once its %-escapes are decoded. */
export function checkFormUtf8(bytes: Buffer): void {
  const at = firstInvalidUtf8(bytes);
  if (at !== null) throw new InvalidUtf8Error(`request body is not valid UTF-8 at byte ${at}`);
  const field = firstNonUtf8Field(bytes.toString('utf8'));
  if (field) {
    throw new InvalidUtf8Error(
      `request body is not valid UTF-8 once its %-escapes are decoded, in ${fieldName(field, 'form field')}`,
    );
  }
}

/**
 * The URL's query string parsed as Express does by default (node:querystring), but refused with
 * a 400 when a parameter is not UTF-8 once its %-escapes are decoded, instead of holding U+FFFD.
 */
export function parseUrlQuery(query: string): ParsedUrlQuery {
  const field = firstNonUtf8Field(query);
  if (field) {
    throw new BadRequestException(
      `the URL's query is not valid UTF-8 once its %-escapes are decoded, in ${fieldName(field, 'parameter')}`,
    );
  }
  return parse(query);
}

/** A field of URL-encoded text whose name (`name` null) or value is not UTF-8 once decoded. */
interface BadField {
  name: string | null;
}

function fieldName({ name }: BadField, kind: string): string {
  return name === null ? `a ${kind}'s name` : `the ${kind} ${name}`;
}

/** The first field of URL-encoded text (a query string, a form body) that is not UTF-8 once its %-escapes are decoded. */
function firstNonUtf8Field(encoded: string): BadField | null {
  // Only an escape of a byte past ASCII can make bytes that are not UTF-8.
  if (!/%[89a-f]/i.test(encoded)) return null;
  for (const pair of encoded.split('&')) {
    const eq = pair.indexOf('=');
    const name = decoded(eq < 0 ? pair : pair.slice(0, eq));
    if (name === null) return { name: null };
    if (eq >= 0 && decoded(pair.slice(eq + 1)) === null) return { name };
  }
  return null;
}

/**
 * A piece of URL-encoded text decoded, or null when its escapes are not UTF-8. decodeURIComponent
 * refuses exactly those, and also a "%" that starts no escape, which the parsers keep as it is:
 * such a "%" is escaped first.
 */
function decoded(piece: string): string | null {
  try {
    return decodeURIComponent(piece.replace(/\+/g, ' ').replace(/%(?![0-9a-f]{2})/gi, '%25'));
  } catch {
    return null;
  }
}

/**
 * Where in the JSON text the bad bytes at `at` are: "in the value of q[0].name", "in a member
 * name of q[0]"; null when they are not inside a string (or the text is not JSON anyway). The
 * bad sequence is replaced by a marker no text holds by chance, and the parsed value searched.
 */
function jsonPathAt(bytes: Buffer, at: number): string | null {
  const marker = `\uFFFD${randomUUID()}`;
  // The rest, decoded leniently, starts with the one U+FFFD that stands for the bad sequence.
  const text = bytes.toString('utf8', 0, at) + marker + bytes.toString('utf8', at).slice(1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const found = firstStringWhere(parsed, (s) => s.includes(marker));
  if (!found) return null;
  if (found.inKey) return found.parent ? `in a member name of ${found.parent}` : 'in a member name';
  return found.path ? `in the value of ${found.path}` : 'in the string';
}
