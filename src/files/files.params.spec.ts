import { BadRequestException } from '@nestjs/common';
import { checkedFileName, mergeWriteOptions, parseHolderRef, pathSegment } from './files.params.js';

describe('parseHolderRef', () => {
  it('reads OIDs of business classes', () => {
    expect(parseHolderRef('OR:wt.epm.EPMDocument:12', undefined)).toEqual({
      kind: 'oid',
      text: 'OR:wt.epm.EPMDocument:12',
      cls: 'wt.epm.EPMDocument',
      id: 12,
    });
    expect(parseHolderRef('OR:wt.part.WTPart:3', 'wt.part.WTPart')).toMatchObject({ kind: 'oid', id: 3 });
  });

  it('takes anything else as a document number, or a number of the class in type', () => {
    expect(parseHolderRef('0000000001', undefined)).toEqual({
      kind: 'number',
      text: '0000000001',
      cls: 'wt.doc.WTDocument',
      number: '0000000001',
    });
    expect(parseHolderRef('P-1', 'wt.part.WTPart')).toMatchObject({ kind: 'number', cls: 'wt.part.WTPart' });
  });

  it.each([
    ['OR:wt.doc.WTDocument:0', undefined, '"OR:wt.doc.WTDocument:0" is not an OID (OR:<class>:<id>)'],
    [
      'OR:wt.doc.WTDocument:99999999999',
      undefined,
      '"OR:wt.doc.WTDocument:99999999999" is not an OID (OR:<class>:<id>)',
    ],
    [
      'OR:wt.org.WTUser:1',
      undefined,
      'files are held by wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart; wt.org.WTUser holds none',
    ],
    ['OR:wt.doc.WTDocument:1', 'wt.part.WTPart', "type wt.part.WTPart contradicts the OID's class wt.doc.WTDocument"],
  ])('refuses %s (type %s)', (text, type, message) => {
    expect(() => parseHolderRef(text, type)).toThrow(new BadRequestException(message));
  });
});

describe('checkedFileName', () => {
  it('normalises to NFC', () => {
    expect(checkedFileName('u\u0308.txt')).toBe('ü.txt');
  });

  it.each(['', '.', '..', 'a/b', 'a\\b', 'a\u0000', 'a\u007f', 'a\u0085', 'x'.repeat(256)])('refuses %j', (name) => {
    expect(() => checkedFileName(name)).toThrow(BadRequestException);
  });

  it('counts the 255-byte limit in UTF-8 bytes', () => {
    expect(checkedFileName('ü'.repeat(127))).toBe('ü'.repeat(127));
    expect(() => checkedFileName('ü'.repeat(128))).toThrow('is longer than 255 bytes');
  });
});

describe('mergeWriteOptions', () => {
  it('defaults to no role, no iteration, the default message and no type', () => {
    expect(mergeWriteOptions({}, {})).toEqual({ role: null, iterate: false, message: null, mimetype: null });
  });

  it('takes URL parameters, and the body over them', () => {
    const query = { role: 'PRIMARY', iterate: 'true', message: 'url', mimetype: 'text/csv' };
    expect(mergeWriteOptions({}, query)).toEqual({
      role: 'PRIMARY',
      iterate: true,
      message: 'url',
      mimetype: 'text/csv',
    });
    expect(
      mergeWriteOptions({ role: 'DRAWING', iterate: false, message: 'body', mimetype: 'text/plain' }, query),
    ).toEqual({
      role: 'DRAWING',
      iterate: false,
      message: 'body',
      mimetype: 'text/plain',
    });
  });

  it('refuses a malformed media type', () => {
    expect(() => mergeWriteOptions({ mimetype: 'text/plain; charset=utf-8' }, {})).toThrow(BadRequestException);
  });
});

describe('pathSegment', () => {
  it('encodes like encodeURIComponent but keeps the colons of OIDs', () => {
    expect(pathSegment('OR:wt.doc.WTDocument:5')).toBe('OR:wt.doc.WTDocument:5');
    expect(pathSegment('a b/ü?')).toBe('a%20b%2F%C3%BC%3F');
  });
});
