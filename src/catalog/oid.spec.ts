import { formatOid, parseOid } from './oid.js';

describe('parseOid', () => {
  it.each([
    ['OR:wt.doc.WTDocument:1001', { cls: 'wt.doc.WTDocument', id: 1001 }],
    ['OR:wt.content.ApplicationData:17', { cls: 'wt.content.ApplicationData', id: 17 }],
    ['OR:wt.pdmlink.PDMLinkProduct:3', { cls: 'wt.pdmlink.PDMLinkProduct', id: 3 }],
    ['OR:wt.doc.WTDocument:2147483647', { cls: 'wt.doc.WTDocument', id: 2147483647 }],
  ])('accepts %s', (text, expected) => {
    expect(parseOid(text)).toEqual(expected);
  });

  it.each([
    '',
    '0000000001',
    'OR:wt.doc.WTDocument',
    'OR:wt.doc.WTDocument:',
    'OR:wt.doc.WTDocument:0',
    'OR:wt.doc.WTDocument:007',
    'OR:wt.doc.WTDocument:-1',
    'OR:wt.doc.WTDocument:1.5',
    'OR:wt.doc.WTDocument:2147483648',
    'OR:WTDocument:1',
    'OR::1',
    'or:wt.doc.WTDocument:1',
    'VR:wt.doc.WTDocument:1',
    'OR:wt.doc.WTDocument:1 ',
    ' OR:wt.doc.WTDocument:1',
    'OR:wt.doc..WTDocument:1',
    'OR:wt.doc.WTDocument:1:2',
    "OR:wt.doc.WTDocument';--:1",
  ])('rejects %j', (text) => {
    expect(parseOid(text)).toBeNull();
  });

  it('round-trips with formatOid', () => {
    expect(parseOid(formatOid('wt.part.WTPart', 42))).toEqual({ cls: 'wt.part.WTPart', id: 42 });
  });
});
