import { Base64Error, decodeBase64Strict, decodedLength } from './base64.js';

describe('decodeBase64Strict', () => {
  it.each([
    ['', ''],
    ['QQ==', 'A'],
    ['QUI=', 'AB'],
    ['QUJD', 'ABC'],
    ['+/+/', Buffer.from([0xfb, 0xff, 0xbf]).toString('latin1')],
  ])('decodes %j', (text, expected) => {
    expect(decodeBase64Strict(text).toString('latin1')).toBe(expected);
    expect(decodedLength(text)).toBe(expected.length);
  });

  it('round-trips every byte value', () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    expect(decodeBase64Strict(bytes.toString('base64')).equals(bytes)).toBe(true);
  });

  it.each([
    ['data:text/plain;base64,QQ==', 'is a data: URL; send only the base64 text after the comma'],
    [
      'QUJD\nQUJD',
      'has a line break (send base64 without line breaks, e.g. `base64 -w0`) at position 4, which is not base64',
    ],
    ['QU JD', 'has white space at position 2, which is not base64'],
    ['QUJ-', "has '-' (base64url; use the standard alphabet with + and /) at position 3, which is not base64"],
    ['QUJ\u0001', 'has the control character U+0001 at position 3, which is not base64'],
    ['QUJ*', "has '*' at position 3, which is not base64"],
    ['QUJDQ', "is 5 characters long, not a multiple of 4 (padding '=' missing?)"],
    ['QQ', "is 2 characters long, not a multiple of 4 (padding '=' missing?)"],
    ['Q===', "has padding '=' at position 1, before the end"],
    ['QQ=A', "has padding '=' at position 2, before the end"],
    ['QQ==QUJD', "has padding '=' at position 2, before the end"],
    ['====', "has padding '=' at position 0, before the end"],
  ])('refuses %j', (text, message) => {
    expect(() => decodeBase64Strict(text)).toThrow(new Base64Error(message));
  });

  it.each(['QR==', 'QUJ=', 'QUK='])('refuses the non-canonical %j', (text) => {
    expect(() => decodeBase64Strict(text)).toThrow(/is not canonical/);
  });
});
