import { jsonDeeperThan } from './json-depth.js';

const nested = (n: number) => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`) as unknown;

describe('jsonDeeperThan', () => {
  it.each([
    ['a scalar', 'x', 0, false],
    ['an empty object', {}, 1, false],
    ['an object in an array', [{ a: 1 }], 2, false],
    ['an object in an array, limit 1', [{ a: 1 }], 1, true],
    ['64 nested arrays', nested(64), 64, false],
    ['65 nested arrays', nested(65), 64, true],
    ['a deep value beside shallow ones', { a: 1, b: [2], c: { d: { e: [[[]]] } } }, 4, true],
  ])('%s', (_name, value, max, expected) => {
    expect(jsonDeeperThan(value, max)).toBe(expected);
  });

  it('walks 100000 levels without overflowing the stack', () => {
    expect(jsonDeeperThan(nested(100_000), 64)).toBe(true);
  });
});
