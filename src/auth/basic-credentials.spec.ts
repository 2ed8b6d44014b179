import { parseBasicAuth } from './basic-credentials.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('parseBasicAuth', () => {
  it('splits at the first colon so passwords may contain colons', () => {
    expect(parseBasicAuth(`Basic ${b64('alice:pa:ss:word')}`)).toEqual({ name: 'alice', password: 'pa:ss:word' });
  });

  it('decodes UTF-8 and accepts any scheme casing', () => {
    expect(parseBasicAuth(`basic ${b64('jörg:pässwörd€')}`)).toEqual({ name: 'jörg', password: 'pässwörd€' });
  });

  it('keeps an empty password', () => {
    expect(parseBasicAuth(`Basic ${b64('alice:')}`)).toEqual({ name: 'alice', password: '' });
  });

  it.each([
    undefined,
    '',
    'Basic',
    'Basic ',
    'Basic !!!',
    'Bearer x',
    `Bearer ${b64('alice:alice-pw')}`,
    `Basic ${b64('no-colon')}`,
    `Basic ${b64(':password-only')}`,
    `Basic ${b64('alice:pw').slice(0, -1)}`,
    `Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString('base64')}`,
    `Basic ${b64('al\u0000ice:pw')}`,
    `Basic ${b64('alice:pw\u0000')}`,
    `Basic ${b64('alice:p\u0000w')}`,
  ])('rejects %j', (header) => {
    expect(parseBasicAuth(header)).toBeNull();
  });
});
