import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { parseTusTarget, parseUploadLength, UPLOAD_ID } from './tus-request.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const meta = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');

describe('parseTusTarget', () => {
  it('reads the file and the options of a raw upload from Upload-Metadata', () => {
    expect(
      parseTusTarget(
        meta({
          ref: '0000000001',
          filename: 'Café.txt',
          role: 'PRIMARY',
          iterate: 'true',
          message: 'm',
          mimetype: 'text/plain',
        }),
      ),
    ).toEqual({
      ref: '0000000001',
      holderType: null,
      fileName: 'Café.txt'.normalize('NFC'),
      options: { role: 'PRIMARY', iterate: true, message: 'm', mimetype: 'text/plain' },
    });
  });

  it('takes the type, defaults the options and ignores keys of other clients', () => {
    expect(
      parseTusTarget(
        `${meta({ ref: 'X-1', filename: 'a.prt', type: 'wt.epm.EPMDocument' })},filetype ,name ${b64('a')}`,
      ),
    ).toEqual({
      ref: 'X-1',
      holderType: 'wt.epm.EPMDocument',
      fileName: 'a.prt',
      options: { role: null, iterate: false, message: null, mimetype: null },
    });
  });

  it('refuses missing names, bad options and malformed metadata with a 400 saying why', () => {
    expect(() => parseTusTarget(undefined)).toThrow(/needs "ref".*and "filename"/);
    expect(() => parseTusTarget(meta({ ref: 'X-1' }))).toThrow(BadRequestException);
    expect(() => parseTusTarget(meta({ ref: 'X-1', filename: 'a', iterate: 'yes' }))).toThrow(
      'Upload-Metadata: iterate must be true or false',
    );
    expect(() => parseTusTarget(meta({ ref: 'X-1', filename: 'a', type: 'wt.part.Nope' }))).toThrow(
      /type must be one of/,
    );
    expect(() => parseTusTarget(meta({ ref: 'X-1', filename: 'a', mimetype: 'nope' }))).toThrow(/is not a media type/);
    expect(() => parseTusTarget(meta({ ref: 'X-1', filename: 'a/b' }))).toThrow(/file name "a\/b"/);
    expect(() => parseTusTarget('ref a b c')).toThrow(/is not a comma-separated list/);
  });
});

describe('parseUploadLength', () => {
  it('takes a number of bytes up to the limit', () => {
    expect(parseUploadLength('0', 10)).toBe(0);
    expect(parseUploadLength('10', 10)).toBe(10);
  });

  it('refuses a missing or malformed length (400) and one past the limit (413)', () => {
    expect(() => parseUploadLength(undefined, 10)).toThrow(/^Upload-Length is required/);
    expect(() => parseUploadLength('-1', 10)).toThrow('Upload-Length "-1" is not a number of bytes');
    expect(() => parseUploadLength('1e3', 10)).toThrow(BadRequestException);
    expect(() => parseUploadLength('11', 10)).toThrow(PayloadTooLargeException);
  });
});

describe('UPLOAD_ID', () => {
  it('is 32 lower-case hex digits', () => {
    expect(UPLOAD_ID.test('0123456789abcdef0123456789abcdef')).toBe(true);
    expect(UPLOAD_ID.test('../0123456789abcdef0123456789abcd')).toBe(false);
    expect(UPLOAD_ID.test('0123456789ABCDEF0123456789ABCDEF')).toBe(false);
  });
});
