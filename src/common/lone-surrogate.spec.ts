import { firstLoneSurrogate, loneSurrogateMessage } from './lone-surrogate.js';

describe('firstLoneSurrogate', () => {
  it.each<[string, unknown, string | null]>([
    ['plain text', { a: 'Grüße', b: ['x', 1, null, true] }, null],
    ['a pair (an emoji)', { a: '🙂', b: '\ud83d\ude42' }, null],
    ['a lone high surrogate', { name: '\ud800' }, 'U+D800 at name'],
    ['a lone low surrogate inside text', { a: ['ok', 'x\udc00y'] }, 'U+DC00 at a[1]'],
    ['a high surrogate at the end', { a: { b: 'abc\udbff' } }, 'U+DBFF at a.b'],
    ['two high surrogates in a row', { a: '\ud800\ud800\udc00' }, 'U+D800 at a'],
    ['a lone surrogate in a key', { a: { 'x\ud800': 1 } }, 'U+D800 at a.x\\ud800 (in the name)'],
    ['the value itself', '\udfff', 'U+DFFF at '],
    ['the first of several', [{ a: 'ok' }, { b: '\ud801' }, { c: '\ud802' }], 'U+D801 at [1].b'],
  ])('%s', (_name, value, expected) => {
    const found = firstLoneSurrogate(value);
    expect(found && `${found.codeUnit} at ${found.path}`).toBe(expected);
  });

  it('starts paths at the given prefix, and says where in its message', () => {
    const found = firstLoneSurrogate({ name: '\ud800' }, 'q[0]')!;
    expect(loneSurrogateMessage('q', found)).toBe('q contains a lone surrogate (U+D800) at q[0].name');
    expect(loneSurrogateMessage('request body', firstLoneSurrogate('\ud800')!)).toBe(
      'request body contains a lone surrogate (U+D800)',
    );
  });

  it('walks deep values without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}"\\ud800"${']'.repeat(100_000)}`) as unknown;
    expect(firstLoneSurrogate(deep)?.codeUnit).toBe('U+D800');
  });
});
