import { parseQuery } from './q-parse.js';
import { QError } from './q-model.js';
import { refuseNul } from './q-text.js';

function problem(...q: unknown[]): string | null {
  try {
    refuseNul(parseQuery(q));
    return null;
  } catch (e) {
    if (e instanceof QError) return e.message;
    throw e;
  }
}

describe('refuseNul', () => {
  it('passes text without NUL characters, however odd', () => {
    expect(problem({ name: 'a\u0001b\\u0000', 'attributes.x': ['\t', 1, true] })).toBeNull();
  });

  it.each<[unknown[], string]>([
    [[{ name: '\u0000' }], 'q[0].name: "\\u0000" holds a NUL character, which text cannot'],
    [
      [{}, { number: { in: ['a', 'b\u0000'] } }],
      'q[1].number.in[1]: "b\\u0000" holds a NUL character, which text cannot',
    ],
    [[{ 'attributes.\u0000': 1 }], 'q[0]: the key "attributes.\\u0000" holds a NUL character, which text cannot'],
    [
      [{ name: `${'x'.repeat(100)}\u0000` }],
      `q[0].name: "${'x'.repeat(76)}... holds a NUL character, which text cannot`,
    ],
  ])('names the value in %j', (q, message) => {
    expect(problem(...q)).toBe(message);
  });
});
