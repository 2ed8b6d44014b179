import { formatNumber, formatRange } from './number-format.js';

describe('number format', () => {
  it('pads the counter to the width between prefix and suffix', () => {
    expect(formatNumber({ prefix: '', suffix: '', width: 10 }, 100n)).toBe('0000000100');
    expect(formatNumber({ prefix: 'P-', suffix: '', width: 8 }, 100n)).toBe('P-00000100');
    expect(formatNumber({ prefix: 'SP', suffix: '-X', width: 5 }, 1n)).toBe('SP00001-X');
  });

  it('writes consecutive ranges', () => {
    expect(formatRange({ prefix: 'SP', suffix: '-X', width: 5 }, 98n, 3)).toEqual([
      'SP00098-X',
      'SP00099-X',
      'SP00100-X',
    ]);
  });

  it('stays exact past 2^53', () => {
    const f = { prefix: '', suffix: '', width: 18 };
    expect(formatRange(f, 9007199254740991n, 3)).toEqual([
      '009007199254740991',
      '009007199254740992',
      '009007199254740993',
    ]);
    expect(formatRange(f, 999999999999999998n, 2)).toEqual(['999999999999999998', '999999999999999999']);
  });
});
