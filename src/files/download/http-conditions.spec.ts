import { matchesStrong, matchesWeak, parseDigestHeaders, parseEntityTags, parseRange } from './http-conditions.js';

const SHA = 'ab'.repeat(32);
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

describe('entity tags', () => {
  it('parses *, lists and weak tags', () => {
    expect(parseEntityTags(' * ', 'If-Match')).toBe('*');
    expect(parseEntityTags(`"a", W/"b" ,"${SHA}"`, 'If-Match')).toEqual(['a', 'W/b', SHA]);
  });

  it.each(['abc', '"unterminated', 'W/abc', '', ','])('refuses %j', (value) => {
    expect(() => parseEntityTags(value, 'If-Match')).toThrow(/^If-Match: /);
  });

  it('compares strongly for If-Match and weakly for If-None-Match', () => {
    expect(matchesStrong([SHA], SHA)).toBe(true);
    expect(matchesStrong([`W/${SHA}`], SHA)).toBe(false);
    expect(matchesStrong('*', SHA)).toBe(true);
    expect(matchesStrong('*', null)).toBe(false);
    expect(matchesWeak([`W/${SHA}`], SHA)).toBe(true);
    expect(matchesWeak(['other'], SHA)).toBe(false);
    expect(matchesWeak('*', null)).toBe(false);
  });
});

describe('parseRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=50-5000', 100, { start: 50, end: 99 }],
    ['BYTES = 1-1', 100, null],
    ['bytes=1-1', 100, { start: 1, end: 1 }],
  ])('%s of %d bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });

  it.each([
    ['bytes=100-', 100],
    ['bytes=100-200', 100],
    ['bytes=-0', 100],
    ['bytes=0-', 0],
    ['bytes=-1', 0],
  ])('%s of %d bytes is unsatisfiable', (header, size) => {
    expect(parseRange(header, size)).toBe('unsatisfiable');
  });

  it.each(['bytes=5-1', 'bytes=0-1,3-4', 'items=0-1', 'bytes=-', 'bytes=a-b'])('ignores %s', (header) => {
    expect(parseRange(header, 100)).toBeNull();
  });
});

describe('parseDigestHeaders', () => {
  const MD5 = 'cd'.repeat(16);

  it('reads Digest (several algorithms), Content-Digest and Content-MD5', () => {
    expect(parseDigestHeaders({ digest: `SHA-256=${b64(SHA)}, md5=${b64(MD5)}` })).toEqual({
      sha256: Buffer.from(SHA, 'hex'),
      md5: Buffer.from(MD5, 'hex'),
    });
    expect(parseDigestHeaders({ 'content-digest': `sha-256=:${b64(SHA)}:, sha-512=:AAAA:` })).toEqual({
      sha256: Buffer.from(SHA, 'hex'),
    });
    expect(parseDigestHeaders({ 'content-md5': b64(MD5) })).toEqual({ md5: Buffer.from(MD5, 'hex') });
    expect(parseDigestHeaders({})).toEqual({});
  });

  it('skips unknown algorithms beside a known one', () => {
    expect(parseDigestHeaders({ digest: `sha-512=AAAA, sha-256=${b64(SHA)}` })).toEqual({
      sha256: Buffer.from(SHA, 'hex'),
    });
  });

  it.each([
    [{ digest: 'sha-512=AAAA' }, 'Digest: no supported algorithm (use sha-256 or md5)'],
    [{ digest: 'sha-256' }, 'Digest: "sha-256" is not <algorithm>=<value>'],
    [{ digest: 'sha-256=AAAA' }, 'Digest: "AAAA" is not a base64 SHA-256 digest'],
    [{ 'content-digest': `sha-256=${b64(SHA)}` }, 'Content-Digest: values are written :<base64>:'],
    [{ 'content-md5': 'not base64!' }, 'Content-MD5: "not base64!" is not a base64 MD5 digest'],
    [
      { digest: `sha-256=${b64(SHA)}`, 'content-digest': `sha-256=:${b64('00'.repeat(32))}:` },
      'Content-Digest: contradicts another digest header',
    ],
  ])('refuses %j', (headers, message) => {
    expect(() => parseDigestHeaders(headers)).toThrow(message);
  });
});
