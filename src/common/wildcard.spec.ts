import fc from 'fast-check';
import { hasWildcard, likePattern, likePrefixRange, literalOf } from './wildcard.js';

describe('wildcards', () => {
  it.each([
    ['0000*', '0000%'],
    ['A?C', 'A_C'],
    ['*', '%'],
    ['100%', '100\\%'],
    ['a_b*', 'a\\_b%'],
    ['a\\*b*', 'a*b%'],
    ['a\\?b?', 'a?b_'],
    ['back\\slash*', 'back\\\\slash%'],
    ['end\\', 'end\\\\'],
    ['', ''],
  ])('translates the q string %j to the LIKE pattern %j', (text, pattern) => {
    expect(likePattern(text, 'q')).toBe(pattern);
  });

  it.each([
    ['abc', false],
    ['a*', true],
    ['a?', true],
    ['a\\*', false],
    ['a\\?', false],
    // a, a backslash, then an escaped star: only \* and \? are escapes, a lone backslash is a character.
    ['a\\\\*', false],
    ['100%_', false],
  ])('%j has a wildcard: %s', (text, expected) => {
    expect(hasWildcard(text)).toBe(expected);
  });

  it('reads escaped wildcards of an exact q value as the characters', () => {
    expect(literalOf('a\\*b\\?c')).toBe('a*b?c');
    expect(literalOf('50%_x\\y')).toBe('50%_x\\y');
  });

  it('keeps % and _ as wildcards in QML like values, and only there', () => {
    expect(likePattern('a*b?c%d_e\\', 'qml')).toBe('a%b_c%d_e\\\\');
    expect(likePattern('a\\*b', 'qml')).toBe('a\\\\%b');
    expect(likePattern('a*b?c%d_e\\', 'names')).toBe('a%b_c\\%d\\_e\\\\');
    expect(likePattern('a\\*b', 'names')).toBe('a\\\\%b');
  });

  describe('the byte range of a LIKE pattern', () => {
    it.each([
      ['abc%', { lo: 'abc', hi: 'abd' }],
      ['abc', { lo: 'abc', hi: 'abd' }],
      ['ab_d%', { lo: 'ab', hi: 'ac' }],
      ['a\\%b%', { lo: 'a%b', hi: 'a%c' }],
      ['10\\\\x%', { lo: '10\\x', hi: '10\\y' }],
      ['Ärger%', { lo: 'Ärger', hi: 'Ärges' }],
      ['x\u{1F600}%', { lo: 'x\u{1F600}', hi: 'x\u{1F601}' }],
      // After U+D7FF comes U+E000 (surrogates are no characters); after U+10FFFF nothing, so the
      // character before it is stepped.
      ['a\uD7FF%', { lo: 'a\uD7FF', hi: 'a\uE000' }],
      ['a\u{10FFFF}%', { lo: 'a\u{10FFFF}', hi: 'b' }],
      ['%abc', null],
      ['_abc', null],
      ['', null],
      ['\u{10FFFF}%', null],
      ['abc\\', null],
    ])('%j lies in %j', (pattern, range) => {
      expect(likePrefixRange(pattern)).toEqual(range);
    });

    const bytes = (s: string) => Buffer.from(s, 'utf8');
    const within = (s: string, r: { lo: string; hi: string }) =>
      Buffer.compare(bytes(s), bytes(r.lo)) >= 0 && Buffer.compare(bytes(s), bytes(r.hi)) < 0;
    // Strings over a few characters on both sides of the steps, so that prefixes are often shared.
    const char = fc.constantFrom(
      'a',
      'b',
      'z',
      '%',
      '_',
      '\\',
      'Ä',
      '\uD7FF',
      '\uE000',
      '\uFFFF',
      '\u{10000}',
      '\u{10FFFF}',
    );
    const text = fc.array(char, { maxLength: 5 }).map((c) => c.join(''));

    it('holds exactly the strings that start with the prefix, in UTF-8 byte order', () => {
      fc.assert(
        fc.property(text, text, (prefix, s) => {
          const r = likePrefixRange(likePattern(prefix, 'names') + '%');
          if (!r) return [...prefix].every((c) => c === '\u{10FFFF}');
          expect(r.lo).toBe(prefix);
          // Every string starting with the prefix lies in the range ...
          expect(within(prefix + s, r)).toBe(true);
          // ... and any string in the range starts with it.
          if (within(s, r)) expect(s.startsWith(prefix)).toBe(true);
          return true;
        }),
        { numRuns: 2000 },
      );
    });
  });
});
