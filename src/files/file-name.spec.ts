import { guessMimeType } from './file-name.js';

describe('guessMimeType', () => {
  it.each([
    ['notes.md', 'text/markdown'],
    ['REPORT.PDF', 'application/pdf'],
    ['bracket.step', 'model/step'],
    ['bracket.stp', 'model/step'],
    ['drawing.dwg', 'image/vnd.dwg'],
    ['table.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['bracket.prt', 'application/octet-stream'],
    ['frame.asm', 'application/octet-stream'],
    ['frame.drw', 'application/octet-stream'],
    ['data.unknownext', 'application/octet-stream'],
    ['README', 'application/octet-stream'],
    ['archive.tar.gz', 'application/gzip'],
  ])('%s is %s', (name, type) => {
    expect(guessMimeType(name)).toBe(type);
  });
});
