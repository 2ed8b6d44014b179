import { ImportProgressReporter, size } from './import-progress.js';
import type { ImportProgress } from './importer-types.js';

const TOTAL = { totalObjects: 600, totalFiles: 300, totalBytes: 3 * 1024 * 1024, totalLinks: 40 };

/** After `objects` objects, each second one with a file of 10 KiB. */
function at(objects: number, links = 0): ImportProgress {
  const files = Math.floor(objects / 2);
  return { ...TOTAL, objects, files, bytes: files * 10 * 1024, links };
}

function reporter(isTTY: boolean) {
  let time = 0;
  const written: string[] = [];
  const r = new ImportProgressReporter(
    { isTTY, columns: 60, write: (t: string) => written.push(t) },
    'big.json',
    () => time,
  );
  return { r, written, advance: (ms: number) => (time += ms) };
}

describe('ImportProgressReporter', () => {
  it('writes plain lines off a terminal: what the dataset holds, then every 250 objects or 5 s', () => {
    const { r, written, advance } = reporter(false);
    r.note('starting the embedded database …'); // only on a terminal
    r.update(at(0));
    for (let n = 1; n <= 600; n++) {
      // Slower after 300: lines every 5 s then (at 350, 400 …), and at 500 for the objects too.
      advance(n <= 300 ? 1 : 100);
      r.update(at(n));
    }
    r.update(at(600, 40));
    r.finish();
    expect(written).toEqual([
      'importing big.json: 600 objects, 300 files (3.0 MiB), 40 links\n',
      'stored 250 of 600 objects, 125 of 300 files (1.2 MiB of 3.0 MiB), 0 of 40 links\n',
      'stored 350 of 600 objects, 175 of 300 files (1.7 MiB of 3.0 MiB), 0 of 40 links\n',
      'stored 400 of 600 objects, 200 of 300 files (2.0 MiB of 3.0 MiB), 0 of 40 links\n',
      'stored 450 of 600 objects, 225 of 300 files (2.2 MiB of 3.0 MiB), 0 of 40 links\n',
      'stored 500 of 600 objects, 250 of 300 files (2.4 MiB of 3.0 MiB), 0 of 40 links\n',
      'stored 550 of 600 objects, 275 of 300 files (2.7 MiB of 3.0 MiB), 0 of 40 links\n',
      'stored 600 of 600 objects, 300 of 300 files (2.9 MiB of 3.0 MiB), 0 of 40 links\n',
    ]);
  });

  it('redraws one line on a terminal, at most every 250 ms, cut to its width, and clears it at the end', () => {
    const { r, written, advance } = reporter(true);
    r.note('checking big.json …');
    r.update(at(0));
    for (let n = 1; n <= 600; n++) {
      advance(1);
      r.update(at(n));
    }
    r.finish();
    expect(written).toEqual([
      '\r\x1b[Kchecking big.json …',
      '\r\x1b[Kimporting: 0/600 objects, 0/300 files (0 B), 0/40 links',
      '\r\x1b[Kimporting: 250/600 objects, 125/300 files (1.2 MiB), 0/40 l',
      '\r\x1b[Kimporting: 500/600 objects, 250/300 files (2.4 MiB), 0/40 l',
      '\r\x1b[K',
    ]);
  });

  it('leaves the terminal alone at the end when it drew nothing', () => {
    const { r, written } = reporter(true);
    r.finish();
    expect(written).toEqual([]);
  });

  it('gives sizes in binary units', () => {
    expect([0, 1023, 1024, 1536, 5 * 1024 * 1024, 3 * 1024 ** 3].map(size)).toEqual([
      '0 B',
      '1023 B',
      '1.0 KiB',
      '1.5 KiB',
      '5.0 MiB',
      '3.0 GiB',
    ]);
  });
});
