import { InputError } from '../../common/input-error.js';
/**
 * HTTP header grammar the file service needs (RFC 9110 conditional and range requests, the
 * Digest, Content-Digest and Content-MD5 integrity headers), as pure functions. Malformed
 * conditions are errors rather than ignored, so a client never believes it made a
 * conditional change that was in fact unconditional.
 */
export class HeaderError extends InputError {}

/** A list of entity tags, or '*' for "any". Weak tags keep their W/ prefix. */
export type EntityTags = '*' | string[];

const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

export function parseEntityTags(header: string, name: string): EntityTags {
  const value = header.trim();
  if (value === '*') return '*';
  const tags = value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (!tags.length) throw new HeaderError(`${name}: no entity tag given`);
  return tags.map((tag) => {
    const m = ENTITY_TAG.exec(tag);
    if (!m) throw new HeaderError(`${name}: ${JSON.stringify(tag)} is not an entity tag; quote it: "<sha256>"`);
    return `${m[1] ?? ''}${m[2]}`;
  });
}

/** Strong comparison (If-Match): weak tags never match. */
export function matchesStrong(tags: EntityTags, current: string | null): boolean {
  if (current === null) return false;
  return tags === '*' || tags.includes(current);
}

/** Weak comparison (If-None-Match, If-Range is strong and uses matchesStrong). */
export function matchesWeak(tags: EntityTags, current: string | null): boolean {
  if (current === null) return false;
  return tags === '*' || tags.some((t) => t.replace(/^W\//, '') === current);
}

/** An inclusive byte range within a representation of `size` bytes. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * A single `bytes=` range. Returns null when the header is to be ignored (other units, several
 * ranges, bad syntax: RFC 9110 lets the server answer 200 with the whole file then), and
 * 'unsatisfiable' for a range that lies outside the file (416).
 */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | null {
  const m = /^bytes=\s*(\d*)-(\d*)\s*$/i.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

/** Digests a client asks the server to verify, as raw bytes. */
export interface ExpectedDigests {
  sha256?: Buffer;
  md5?: Buffer;
}

const DIGEST_LENGTH = { sha256: 32, md5: 16 } as const;

/**
 * Collects `Digest: sha-256=<b64>[, md5=<b64>]` (RFC 3230), `Content-Digest: sha-256=:<b64>:`
 * (RFC 9530) and `Content-MD5: <b64>` (RFC 1864). A header that names only algorithms the
 * service cannot check is an error: silently skipping the check would defeat its purpose.
 */
export function parseDigestHeaders(headers: {
  digest?: string;
  'content-digest'?: string;
  'content-md5'?: string;
}): ExpectedDigests {
  const out: ExpectedDigests = {};
  const add = (algorithm: keyof ExpectedDigests, b64: string, source: string) => {
    const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(b64) && b64.length % 4 === 0 ? Buffer.from(b64, 'base64') : null;
    if (!bytes || bytes.length !== DIGEST_LENGTH[algorithm]) {
      throw new HeaderError(
        `${source}: ${JSON.stringify(b64)} is not a base64 ${algorithm === 'md5' ? 'MD5' : 'SHA-256'} digest`,
      );
    }
    if (out[algorithm] && !out[algorithm].equals(bytes)) {
      throw new HeaderError(`${source}: contradicts another digest header`);
    }
    out[algorithm] = bytes;
  };
  for (const [source, header, wrapped] of [
    ['Digest', headers.digest, false],
    ['Content-Digest', headers['content-digest'], true],
  ] as const) {
    if (header === undefined) continue;
    let known = 0;
    for (const part of header.split(',')) {
      const eq = part.indexOf('=');
      if (eq < 0) throw new HeaderError(`${source}: ${JSON.stringify(part.trim())} is not <algorithm>=<value>`);
      const algorithm = part.slice(0, eq).trim().toLowerCase();
      let value = part.slice(eq + 1).trim();
      if (wrapped) {
        if (!/^:.*:$/.test(value)) throw new HeaderError(`${source}: values are written :<base64>:`);
        value = value.slice(1, -1);
      }
      if (algorithm === 'sha-256') add('sha256', value, source);
      else if (algorithm === 'md5' && !wrapped) add('md5', value, source);
      else continue;
      known++;
    }
    if (!known) throw new HeaderError(`${source}: no supported algorithm (use sha-256${wrapped ? '' : ' or md5'})`);
  }
  if (headers['content-md5'] !== undefined) add('md5', headers['content-md5'].trim(), 'Content-MD5');
  return out;
}
