import { safeSegment, ZipNames } from './zip-names.js';

describe('safeSegment', () => {
  it.each([
    ['../../etc/passwd', '__.._etc_passwd'],
    ['/abs/path', '_abs_path'],
    ['..', '_'],
    ['.', '_'],
    ['', '_'],
    ['C:\\Windows\\x', 'C__Windows_x'],
    ['a\u0000b\u001fc\u007f', 'a_b_c_'],
    ['.hidden', '_hidden'],
    ['name. ', 'name'],
    ['CON', '_CON'],
    ['nul.txt', '_nul.txt'],
    ['spec.txt', 'spec.txt'],
    ['P-0001 A.1', 'P-0001 A.1'],
  ])('%j → %j', (raw, safe) => {
    expect(safeSegment(raw)).toBe(safe);
  });

  it('cuts long names, keeping the extension', () => {
    const name = safeSegment(`${'x'.repeat(300)}.step`);
    expect(name).toHaveLength(120);
    expect(name.endsWith('.step')).toBe(true);
  });
});

describe('ZipNames', () => {
  it('numbers names taken already, without regard to case, per folder', () => {
    const names = new ZipNames();
    expect(names.take('', 'manifest.json')).toBe('manifest.json');
    expect(names.folder('P-1')).toBe('P-1');
    expect(names.folder('p-1')).toBe('p-1 (2)');
    expect(names.take('P-1', 'a.txt')).toBe('P-1/a.txt');
    expect(names.take('P-1', 'A.TXT')).toBe('P-1/A (2).TXT');
    expect(names.take('P-1', '../a.txt')).toBe('P-1/__a.txt');
    expect(names.take('p-1 (2)', 'a.txt')).toBe('p-1 (2)/a.txt');
    expect(names.take('', 'manifest.json')).toBe('manifest (2).json');
  });
});
