import { BadRequestException } from '@nestjs/common';
import { flag, parseItemRef, wildcardFilter } from './object-api-params.js';

const DOCS = ['wt.doc.WTDocument'];

describe('api/1.0 parameters', () => {
  it.each([
    [undefined, true, true],
    [undefined, false, false],
    ['yes', false, true],
    ['True', false, true],
    ['1', false, true],
    ['ON', false, true],
    ['no', true, false],
    ['False', true, false],
    ['0', true, false],
  ])('flag %j (default %s) is %s', (text, fallback, expected) => {
    expect(flag(text, fallback)).toBe(expected);
  });

  it.each([
    [undefined, null],
    ['*', null],
    ['*.asm', '%.asm'],
    ['drive?unit*', 'drive_unit%'],
    ['100%_x', '100\\%\\_x'],
  ])('the name filter %j is the LIKE pattern %j', (text, pattern) => {
    expect(wildcardFilter(text)).toBe(pattern);
  });

  it('reads OIDs, version references and numbers of the resource', () => {
    expect(parseItemRef('OR:wt.doc.WTDocument:12', 'documents', DOCS)).toEqual({
      kind: 'oid',
      text: 'OR:wt.doc.WTDocument:12',
      cls: 'wt.doc.WTDocument',
      id: 12,
    });
    expect(parseItemRef('VR:wt.doc.WTDocument:7', 'documents', DOCS)).toMatchObject({ id: 7, branch: true });
    expect(parseItemRef('0000000001', 'documents', DOCS)).toEqual({
      kind: 'number',
      text: '0000000001',
      cls: null,
      number: '0000000001',
    });
  });

  it.each([
    ['OR:wt.doc.WTDocument:x', 'is not an OID'],
    ['OR:wt.doc.WTDocument:0', 'is not an OID'],
    ['VR:wt.doc.WTDocument:', 'is not a version reference'],
    [
      'OR:wt.part.WTPart:1',
      'documents are objects of wt.doc.WTDocument and the classes below it, not of wt.part.WTPart',
    ],
    ['x'.repeat(201), 'an object is named by its OID or its number'],
  ])('refuses %j: %s', (text, message) => {
    const call = () => parseItemRef(text, 'documents', DOCS);
    expect(call).toThrow(BadRequestException);
    expect(call).toThrow(message);
  });
});
