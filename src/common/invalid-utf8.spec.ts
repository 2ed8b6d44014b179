import { BadRequestException } from '@nestjs/common';
import { checkFormUtf8, checkJsonUtf8, firstInvalidUtf8, parseUrlQuery } from './invalid-utf8.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('firstInvalidUtf8', () => {
  it.each([
    ['ASCII', bytes('plain')],
    ['multi-byte characters and a BOM', bytes([0xef, 0xbb, 0xbf], 'é€🙂\uFFFD')],
    ['nothing', bytes()],
  ])('finds nothing in %s', (_name, b) => {
    expect(firstInvalidUtf8(b)).toBeNull();
  });

  it.each([
    ['a byte that starts nothing', bytes('ab', [0xff], 'c'), 2],
    ['a lone continuation byte after a BOM', bytes([0xef, 0xbb, 0xbf], 'é', [0x80]), 5],
    ['a sequence cut short by ASCII', bytes('x', [0xe2, 0x82], '"'), 1],
    ['a sequence cut short at the end', bytes('xy', [0xf0, 0x9f, 0x99]), 2],
    ['an overlong encoding', bytes('€', [0xc0, 0xaf]), 3],
    ['an encoded surrogate', bytes('a', [0xed, 0xa0, 0x80]), 1],
    ['past U+10FFFF', bytes('🙂', [0xf4, 0x90, 0x80, 0x80]), 4],
  ])('finds where %s starts', (_name, b, at) => {
    expect(firstInvalidUtf8(b)).toBe(at);
  });
});

describe('checkJsonUtf8', () => {
  const message = (b: Buffer) => {
    try {
      checkJsonUtf8(b);
      return null;
    } catch (e) {
      return (e as Error & { type?: string }).type === 'encoding.invalid' ? (e as Error).message : e;
    }
  };

  it('names the byte and the value or member name holding it', () => {
    expect(message(bytes('{"a":[1,{"b":"x', [0xff], '"}]}'))).toBe(
      'request body is not valid UTF-8 at byte 15 (in the value of a[1].b)',
    );
    expect(message(bytes('{"a":{"k', [0xff], '":1}}'))).toBe(
      'request body is not valid UTF-8 at byte 8 (in a member name of a)',
    );
    expect(message(bytes('"', [0xff], '"'))).toBe('request body is not valid UTF-8 at byte 1 (in the string)');
  });

  it('names the byte alone outside strings or in text that is not JSON anyway', () => {
    expect(message(bytes('{"a":1', [0xff], '}'))).toBe('request body is not valid UTF-8 at byte 6');
    expect(message(bytes('{"a":"', [0xff]))).toBe('request body is not valid UTF-8 at byte 6');
  });

  it('finds the bad bytes, not a U+FFFD or a lone surrogate sent as such', () => {
    expect(message(bytes('{"a":"\uFFFD","b":"\\ud800","c":"', [0xc3], '"}'))).toBe(
      'request body is not valid UTF-8 at byte 29 (in the value of c)',
    );
    expect(message(bytes('{"a":"\uFFFD"}'))).toBeNull();
  });
});

describe('checkFormUtf8 and parseUrlQuery', () => {
  it('refuses %-escapes that decode to bytes that are not UTF-8, naming the field', () => {
    expect(() => checkFormUtf8(bytes('a=1&q=%E2%82'))).toThrow(
      'request body is not valid UTF-8 once its %-escapes are decoded, in the form field q',
    );
    expect(() => checkFormUtf8(bytes('a=%FF'))).toThrow('in the form field a');
    expect(() => checkFormUtf8(bytes('%FF=1'))).toThrow("in a form field's name");
    expect(() => checkFormUtf8(bytes('q=', [0xff]))).toThrow('request body is not valid UTF-8 at byte 2');
    expect(() => parseUrlQuery('q=%C3')).toThrow(BadRequestException);
    expect(() => parseUrlQuery('q=%C3')).toThrow(
      "the URL's query is not valid UTF-8 once its %-escapes are decoded, in the parameter q",
    );
  });

  it('takes UTF-8, "+" for spaces and a "%" that starts no escape, as Express parses them', () => {
    expect(() => checkFormUtf8(bytes('q=%C3%A9+%E2%82%AC&r=50%&s=%zz'))).not.toThrow();
    expect({ ...parseUrlQuery('q=%C3%A9+x&q=2&r=50%') }).toEqual({ q: ['é x', '2'], r: '50%' });
  });
});
