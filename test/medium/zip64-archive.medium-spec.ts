import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { zipArchive, type ZipArchive, type ZipEntry } from '../../src/files/download/zip-archive.js';

/**
 * Archives past the limits of the original ZIP format (4 GiB of bytes, an entry of 4 GiB or
 * more, 65 535 entries) must be ZIP64 and readable. These tests of src/files/download/zip-archive.ts
 * need no database, but they stream gigabytes (most of a minute of CPU time): they run here,
 * with the slower tier, to keep the unit tier quick. The bytes are made and checked as they
 * stream, never kept: a file of zeros longer than 4 GiB goes through the archive into a sink
 * that keeps only the archive's first and last bytes and checks that all between them are the
 * file's zeros. The archive is then read back by yauzl from those bytes (zeros between them).
 */

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const ZEROS = Buffer.alloc(MiB);
/** How much of the archive's start and end the sink keeps. */
const KEPT = 64 * 1024;
/** A bound for one test on a busy machine (not a timing assertion): each takes about half a minute alone. */
const LONG = 10 * 60_000;

/** `size` zero bytes, in chunks of a MiB. */
function zeros(size: number): Readable {
  let left = size;
  return new Readable({
    highWaterMark: MiB,
    read() {
      if (left === 0) return void this.push(null);
      const n = Math.min(left, MiB);
      left -= n;
      this.push(n === MiB ? ZEROS : ZEROS.subarray(0, n));
    },
  });
}

const file = (path: string, bytes: Buffer): ZipEntry => ({
  path,
  size: bytes.length,
  open: () => Promise.resolve(Readable.from([bytes])),
});

/** The archive as it streamed: its length, first and last bytes, and whether all between them were zeros. */
interface Streamed {
  length: number;
  head: Buffer;
  tail: Buffer;
  zerosBetween: boolean;
}

async function stream(zip: ZipArchive, kept = KEPT): Promise<Streamed> {
  const head = Buffer.alloc(Math.min(kept, zip.length));
  const tailStart = Math.max(0, zip.length - kept);
  const tail = Buffer.alloc(zip.length - tailStart);
  let at = 0;
  let zerosBetween = true;
  await pipeline(
    zip.stream,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        const end = at + chunk.length;
        if (at < head.length) chunk.copy(head, at, 0, Math.min(chunk.length, head.length - at));
        if (end > tailStart) chunk.copy(tail, Math.max(0, at - tailStart), Math.max(0, tailStart - at));
        const from = Math.max(at, head.length);
        const to = Math.min(end, tailStart);
        for (let p = from; p < to && zerosBetween; p += MiB) {
          const n = Math.min(MiB, to - p);
          zerosBetween = chunk.subarray(p - at, p - at + n).equals(ZEROS.subarray(0, n));
        }
        at = end;
        done();
      },
    }),
  );
  return { length: at, head, tail, zerosBetween };
}

/** The streamed archive to read back: its first and last bytes, zeros between them. */
class StreamedArchive extends yauzl.RandomAccessReader {
  constructor(private readonly streamed: Streamed) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const { head, tail, length } = this.streamed;
    const tailStart = length - tail.length;
    function* bytes() {
      for (let p = start; p < end;) {
        if (p < head.length) {
          const n = Math.min(end, head.length) - p;
          yield head.subarray(p, p + n);
          p += n;
        } else if (p >= tailStart) {
          yield tail.subarray(p - tailStart, end - tailStart);
          p = end;
        } else {
          const n = Math.min(end, tailStart, p + MiB) - p;
          yield ZEROS.subarray(0, n);
          p += n;
        }
      }
    }
    return Readable.from(bytes(), { objectMode: false });
  }
}

interface ReadEntry {
  name: string;
  size: number;
  compressedSize: number;
  offset: number;
  crc32: number;
  /** The CRC-32 of the bytes read (node:zlib's, not the archive writer's) and their count. */
  read: { crc32: number; bytes: number; text: string | null };
}

/** Every entry of the archive, read whole (sizes validated by yauzl); empty ones are only listed. */
function readBack(streamed: Streamed): Promise<{ entryCount: number; entries: ReadEntry[] }> {
  return new Promise((resolve, reject) => {
    const options = { lazyEntries: true, strictFileNames: true, validateEntrySizes: true };
    yauzl.fromRandomAccessReader(new StreamedArchive(streamed), streamed.length, options, (e, zip) => {
      if (e || !zip) return reject(e ?? new Error('no zip'));
      const entries: ReadEntry[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve({ entryCount: zip.entryCount, entries }));
      zip.on('entry', (entry: yauzl.Entry) => {
        const listed = {
          name: entry.fileName,
          size: entry.uncompressedSize,
          compressedSize: entry.compressedSize,
          offset: entry.relativeOffsetOfLocalHeader,
          crc32: entry.crc32,
        };
        if (entry.uncompressedSize === 0) {
          entries.push({ ...listed, read: { crc32: 0, bytes: 0, text: '' } });
          return zip.readEntry();
        }
        zip.openReadStream(entry, (err, bytes) => {
          if (err || !bytes) return reject(err ?? new Error('no stream'));
          let crc = 0;
          let count = 0;
          const small: Buffer[] = [];
          bytes.on('data', (chunk: Buffer) => {
            crc = crc32(chunk, crc);
            count += chunk.length;
            if (count <= 1024) small.push(chunk);
          });
          bytes.on('error', reject);
          bytes.on('end', () => {
            entries.push({
              ...listed,
              read: { crc32: crc, bytes: count, text: count <= 1024 ? Buffer.concat(small).toString() : null },
            });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** The end records of an archive (its last bytes): the classic one, and the ZIP64 one it points to. */
function endRecords(streamed: Streamed) {
  const { tail, length } = streamed;
  const tailStart = length - tail.length;
  // No archive comment: the classic record is the last 22 bytes, the ZIP64 locator the 20 before.
  const eocd = tail.subarray(tail.length - 22);
  const locator = tail.subarray(tail.length - 42, tail.length - 22);
  expect(eocd.readUInt32LE(0)).toBe(0x06054b50);
  expect(locator.readUInt32LE(0)).toBe(0x07064b50);
  const zip64At = Number(locator.readBigUInt64LE(8));
  const zip64 = tail.subarray(zip64At - tailStart);
  expect(zip64.readUInt32LE(0)).toBe(0x06064b50);
  return {
    classic: {
      entries: eocd.readUInt16LE(10),
      directorySize: eocd.readUInt32LE(12),
      directoryOffset: eocd.readUInt32LE(16),
    },
    zip64: {
      at: zip64At,
      entries: Number(zip64.readBigUInt64LE(32)),
      directorySize: Number(zip64.readBigUInt64LE(40)),
      directoryOffset: Number(zip64.readBigUInt64LE(48)),
    },
  };
}

/** The CRC-32 of `size` zero bytes. */
function zerosCrc(size: number): number {
  let crc = 0;
  for (let left = size; left > 0; left -= MiB) crc = crc32(ZEROS.subarray(0, Math.min(left, MiB)), crc);
  return crc;
}

describe('zipArchive past the limits of the original ZIP format', () => {
  it(
    'streams a file of more than 4 GiB and a file after it as a valid ZIP64 archive of the announced length',
    async () => {
      const size = 4 * GiB + 100 * MiB;
      let opened = 0;
      const big: ZipEntry = {
        path: 'part/model.bin',
        size,
        open: () => {
          opened++;
          return Promise.resolve(zeros(size));
        },
      };
      const manifest = Buffer.from('{"files":2}\n');
      const after = Buffer.from('after the big one\n');
      const zip = zipArchive(
        { path: 'manifest.json', bytes: manifest },
        [big, file('part/after.txt', after)],
        new Date(2026, 0, 1),
      );
      expect(zip.length).toBeGreaterThan(size);

      const streamed = await stream(zip);
      expect(opened).toBe(1);
      // The announced length (the answer's Content-Length) is the length streamed.
      expect(streamed.length).toBe(zip.length);
      expect(streamed.zerosBetween).toBe(true);

      const { classic, zip64 } = endRecords(streamed);
      // The classic record says "see the ZIP64 one" where its fields cannot hold the values.
      expect(classic.directoryOffset).toBe(0xffffffff);
      expect(zip64.entries).toBe(3);
      expect(zip64.directoryOffset).toBeGreaterThan(2 ** 32);
      expect(zip64.directoryOffset + zip64.directorySize).toBe(zip64.at);

      const { entryCount, entries } = await readBack(streamed);
      expect(entryCount).toBe(3);
      const zeroCrc = zerosCrc(size);
      const first = entries[1].offset;
      expect(entries).toEqual([
        {
          name: 'manifest.json',
          size: manifest.length,
          compressedSize: manifest.length,
          offset: 0,
          crc32: crc32(manifest),
          read: { crc32: crc32(manifest), bytes: manifest.length, text: '{"files":2}\n' },
        },
        {
          name: 'part/model.bin',
          size,
          compressedSize: size,
          offset: first,
          crc32: zeroCrc,
          read: { crc32: zeroCrc, bytes: size, text: null },
        },
        {
          name: 'part/after.txt',
          size: after.length,
          compressedSize: after.length,
          offset: expect.any(Number),
          crc32: crc32(after),
          read: { crc32: crc32(after), bytes: after.length, text: after.toString() },
        },
      ]);
      // The file after the big one starts past 4 GiB: its offset is a ZIP64 one.
      expect(entries[2].offset).toBeGreaterThan(first + size);
      expect(entries[2].offset).toBeGreaterThan(2 ** 32);
    },
    LONG,
  );

  it(
    'streams more than 65 535 files as a valid ZIP64 archive',
    async () => {
      const count = 66_000;
      // Mostly empty files (no read for them): the count is what matters.
      const has = (i: number) => i % 1000 === 0;
      const files = Array.from({ length: count }, (_, i) => file(`f/${i}.txt`, Buffer.from(has(i) ? `${i}\n` : '')));
      const zip = zipArchive({ path: 'manifest.json', bytes: Buffer.from('{}\n') }, files, new Date(2026, 0, 1));
      // Some MiB: kept whole.
      const streamed = await stream(zip, zip.length);
      expect(streamed.length).toBe(zip.length);

      const { classic, zip64 } = endRecords(streamed);
      expect(classic.entries).toBe(0xffff);
      expect(zip64.entries).toBe(count + 1);

      const { entryCount, entries } = await readBack(streamed);
      expect(entryCount).toBe(count + 1);
      expect(entries.map((e) => e.name)).toEqual(['manifest.json', ...files.map((f) => f.path)]);
      entries.slice(1).forEach((e, i) => {
        expect([e.size, e.read.text]).toEqual(has(i) ? [`${i}\n`.length, `${i}\n`] : [0, '']);
      });
    },
    LONG,
  );
});
