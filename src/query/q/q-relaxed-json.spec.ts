import fc from 'fast-check';
import { MAX_RELAXED_DEPTH, readRelaxedJson, RelaxedJsonError } from './q-relaxed-json.js';

function failure(text: string): string {
  try {
    readRelaxedJson(text);
  } catch (e) {
    expect(e).toBeInstanceOf(RelaxedJsonError);
    return (e as Error).message;
  }
  throw new Error(`read ${text}`);
}

describe('readRelaxedJson', () => {
  it.each<[string, unknown]>([
    ["{'name':'lego*.prt'}", { name: 'lego*.prt' }],
    [`{"type":'wt.part.WTPart', 'name' : "*.prt"}`, { type: 'wt.part.WTPart', name: '*.prt' }],
    ["{'name':'it\\'s \"quoted\"'}", { name: `it's "quoted"` }],
    ["{'a':[1,-2.5e3,true,false,null,'x'],'b':{}}", { a: [1, -2500, true, false, null, 'x'], b: {} }],
    [" \t\n{ 'a' : [ ] } \r\n", { a: [] }],
    ["{'e':'\\u00e9\\n\\t\\/\\\\'}", { e: 'é\n\t/\\' }],
    ["'x'", 'x'],
    ['{"a":1,"a":2}', { a: 2 }],
  ])('reads %s', (text, value) => {
    expect(readRelaxedJson(text)).toEqual(value);
  });

  it('reads strict JSON as JSON.parse does', () => {
    for (const text of ['{"number":"0000*","latest":false}', '[1,{"a":[null]}]', '"\\ud83d\\ude00"', '-0.5']) {
      expect(readRelaxedJson(text)).toEqual(JSON.parse(text));
    }
  });

  it('keeps __proto__ as an own key, as JSON.parse does', () => {
    const value = readRelaxedJson("{'__proto__':{'a':1}}") as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it.each<[string, string]>([
    ['', 'a value expected, the text ended at position 0'],
    ["{'name':'x'", '"," or "}" expected at position 11'],
    ['{name:1}', 'a quoted key expected at position 1'],
    ["{'a' 1}", '":" expected after a key at position 5'],
    ["{'a':1,}", 'a quoted key expected at position 7'],
    ['[1,]', 'unexpected "]": a value expected at position 3'],
    ['[1 2]', '"," or "]" expected at position 3'],
    ["{'a':'x}", 'an unterminated string at position 8'],
    ["{'a':'\\x'}", 'an unknown escape \\x at position 6'],
    ['{"a":"\\\'"}', "an unknown escape \\' at position 6"],
    ["{'a':'\\u12'}", '\\u needs four hex digits at position 6'],
    ["{'a':'\t'}", 'a control character in a string (write it as an escape) at position 6'],
    ["{'a':01}", '"," or "}" expected at position 6'],
    ["{'a':TRUE}", 'unexpected "T": a value expected at position 5'],
    ["{'a':1} x", 'unexpected text after the value at position 8'],
    ["{'a':1} // c", 'unexpected text after the value at position 8'],
  ])('refuses %j', (text, message) => {
    expect(failure(text)).toBe(message);
  });

  it(`refuses nesting deeper than ${MAX_RELAXED_DEPTH} levels, at the first level too deep`, () => {
    const ok = `${'['.repeat(MAX_RELAXED_DEPTH)}${']'.repeat(MAX_RELAXED_DEPTH)}`;
    expect(() => readRelaxedJson(ok)).not.toThrow();
    const deep = `${"{'a':".repeat(100_000)}1${'}'.repeat(100_000)}`;
    expect(failure(deep)).toBe(`nested deeper than ${MAX_RELAXED_DEPTH} levels at position ${5 * MAX_RELAXED_DEPTH}`);
  });

  it('reads or refuses random text with a RelaxedJsonError, and reads JSON texts as JSON.parse', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        try {
          readRelaxedJson(text);
        } catch (e) {
          if (!(e instanceof RelaxedJsonError)) throw e;
        }
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.json({ maxDepth: 5 }), (text) => {
        expect(readRelaxedJson(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 2000 },
    );
  });
});
