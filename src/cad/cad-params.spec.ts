import { parseCadRef, planLineNumbers } from './cad-params.js';

const link = (id: number, memberNumber: string, lineNumber: number | null) => ({
  id,
  memberNumber,
  lineNumber: lineNumber === null ? null : BigInt(lineNumber),
});

describe('planLineNumbers', () => {
  const links = [link(1, 'C', null), link(2, 'A', 30), link(3, 'B', null), link(4, 'D', 5)];

  it('all: orders by line number (none last), then member number', () => {
    expect(planLineNumbers(links, 'all', 10n, 10n)).toEqual([
      [4, 10n],
      [2, 20n],
      [3, 30n],
      [1, 40n],
    ]);
  });

  it('missing: numbers only links without one, on from the highest existing', () => {
    expect(planLineNumbers(links, 'missing', 10n, 10n)).toEqual([
      [3, 40n],
      [1, 50n],
    ]);
  });

  it('missing: starts at start when that is above every existing number, or none exists', () => {
    expect(planLineNumbers(links, 'missing', 100n, 5n)).toEqual([
      [3, 100n],
      [1, 105n],
    ]);
    expect(planLineNumbers([link(7, 'X', null), link(6, 'X', null)], 'missing', 10n, 10n)).toEqual([
      [6, 10n],
      [7, 20n],
    ]);
  });
});

describe('parseCadRef', () => {
  it('takes a CAD document OID or a number', () => {
    expect(parseCadRef('OR:wt.epm.EPMDocument:12')).toEqual({
      kind: 'iteration',
      text: 'OR:wt.epm.EPMDocument:12',
      id: 12,
    });
    expect(parseCadRef('0000500001')).toEqual({ kind: 'number', text: '0000500001' });
  });

  it('refuses OIDs of other classes and malformed ones', () => {
    expect(() => parseCadRef('OR:wt.part.WTPart:1')).toThrow('is not a CAD document');
    expect(() => parseCadRef('OR:nope')).toThrow('is not an OID');
  });
});
