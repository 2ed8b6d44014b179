import { hasWildcard, likePattern, literalOf } from './wildcard.js';

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
});
