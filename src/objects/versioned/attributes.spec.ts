import { checkAttributes, mergeAttributes } from './attributes.js';

describe('checkAttributes and mergeAttributes', () => {
  it('accepts JSON scalars and null, and merges with null removing', () => {
    const change = checkAttributes({ a: 'x', b: 2, c: true, d: null });
    expect(mergeAttributes({ d: 1, e: 'kept' }, change)).toEqual({ a: 'x', b: 2, c: true, e: 'kept' });
  });

  it.each([
    [[], 'attributes must be an object'],
    [{ 'x y': 1 }, 'is not an attribute name'],
    [{ a: [1] }, 'attributes.a must be'],
    [{ a: Number.NaN }, 'attributes.a must be'],
  ])('refuses %j naming the field', (value, message) => {
    expect(() => checkAttributes(value)).toThrow(message);
  });
});
