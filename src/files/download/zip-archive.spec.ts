import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { zipArchive, type ZipEntry } from './zip-archive.js';

function entry(path: string, bytes: Buffer, opened: string[]): ZipEntry {
  return {
    path,
    size: bytes.length,
    open: () => {
      opened.push(path);
      return Promise.resolve(Readable.from([bytes.subarray(0, 10), bytes.subarray(10)]));
    },
  };
}

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

function names(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: false }, (e, zip) => {
      if (e || !zip) return reject(e ?? new Error('no zip'));
      const found: string[] = [];
      zip.on('entry', (en: yauzl.Entry) => found.push(`${en.fileName}:${en.uncompressedSize}`));
      zip.on('end', () => resolve(found));
      zip.on('error', reject);
    });
  });
}

describe('zipArchive', () => {
  it('streams the first entry and the files, stored, with the length announced before the first byte', async () => {
    const opened: string[] = [];
    const a = Buffer.alloc(100, 1);
    const b = Buffer.alloc(0);
    const c = Buffer.alloc(5000, 3);
    const zip = zipArchive(
      { path: 'manifest.json', bytes: Buffer.from('{}\n') },
      [entry('x/a.bin', a, opened), entry('x/b.bin', b, opened), entry('y/c.bin', c, opened)],
      new Date(2026, 0, 1),
    );
    const bytes = await collect(zip.stream);
    expect(bytes.length).toBe(zip.length);
    expect(await names(bytes)).toEqual(['manifest.json:3', 'x/a.bin:100', 'x/b.bin:0', 'y/c.bin:5000']);
    // An empty file needs no read.
    expect(opened).toEqual(['x/a.bin', 'y/c.bin']);
  });

  // A central directory record: 46 bytes, the name, and the extended timestamp field (9 bytes).
  const record = (name: string) => 46 + Buffer.byteLength(name) + 9;

  it.each([0xffff - 1, 0xffff, 0xffff + 1])(
    'announces the length it streams when the central directory comes to %i bytes',
    async (directory) => {
      const first = 'manifest.json';
      // Empty files with names of 10 characters, the last one's name taking up the rest.
      let left = directory - record(first);
      const files: ZipEntry[] = [];
      for (let i = 0; left - record('x'.repeat(10)) >= record('z'.repeat(10)); i++) {
        const name = String(i).padStart(10, '0');
        files.push(entry(name, Buffer.alloc(0), []));
        left -= record(name);
      }
      files.push(entry('z'.repeat(left - record('')), Buffer.from('last\n'), []));
      expect(record(first) + files.reduce((sum, f) => sum + record(f.path), 0)).toBe(directory);
      const zip = zipArchive({ path: first, bytes: Buffer.from('{}\n') }, files, new Date(2026, 0, 1));
      const bytes = await collect(zip.stream);
      expect(bytes.length).toBe(zip.length);
      const listed = await names(bytes);
      expect(listed.length).toBe(files.length + 1);
      expect(listed.at(-1)).toBe(`${files.at(-1)!.path}:5`);
    },
  );

  it('opens no further file once the stream is destroyed', async () => {
    const opened: string[] = [];
    const big = Buffer.alloc(1024 * 1024, 7);
    const zip = zipArchive(
      { path: 'manifest.json', bytes: Buffer.from('{}\n') },
      Array.from({ length: 20 }, (_, i) => entry(`f${i}.bin`, big, opened)),
      new Date(2026, 0, 1),
    );
    await new Promise<void>((resolve) => zip.stream.once('data', () => resolve()));
    const closed = new Promise((r) => zip.stream.once('close', r));
    zip.stream.destroy();
    await closed;
    const count = opened.length;
    expect(count).toBeLessThan(20);
    // Whatever was under way settles in the next turns of the event loop: nothing more is opened.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(opened.length).toBe(count);
  });
});
