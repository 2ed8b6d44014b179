import { parseCopyRows } from './copy-reader.js';

/** A binary COPY stream of (seq int4, data bytea) rows, as PostgreSQL sends it. */
function copyStream(rows: [number, Buffer][]): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), int32(0), int32(3), Buffer.from('ext')];
  for (const [seq, data] of rows) parts.push(int16(2), int32(4), int32(seq), int32(data.length), data);
  parts.push(int16(-1));
  return Buffer.concat(parts);
}

function int16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
}

function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}

const ROWS: [number, Buffer][] = [
  [0, Buffer.from('first chunk')],
  [1, Buffer.alloc(0)],
  [2, Buffer.from('the third and last chunk')],
];

describe('parseCopyRows', () => {
  it('reads the rows of a stream that arrived in one piece', () => {
    const rows = parseCopyRows([copyStream(ROWS)]);
    expect(rows.map((r) => [r.seq, Buffer.concat(r.parts).toString(), r.length])).toEqual([
      [0, 'first chunk', 11],
      [1, '', 0],
      [2, 'the third and last chunk', 24],
    ]);
  });

  it('reads the same rows however the stream is cut into pieces', () => {
    // Buffer.alloc is never taken from the shared pool: a copy would have another ArrayBuffer.
    const whole = Buffer.alloc(copyStream(ROWS).length);
    copyStream(ROWS).copy(whole);
    for (let size = 1; size <= whole.length; size++) {
      const pieces: Buffer[] = [];
      for (let o = 0; o < whole.length; o += size) pieces.push(whole.subarray(o, o + size));
      const rows = parseCopyRows(pieces);
      expect(rows.map((r) => [r.seq, Buffer.concat(r.parts).toString('latin1')])).toEqual(
        ROWS.map(([seq, data]) => [seq, data.toString('latin1')]),
      );
      // The bytes are slices of the pieces, never copies.
      for (const r of rows) for (const p of r.parts) expect(p.buffer).toBe(whole.buffer);
    }
  });

  it('refuses a stream that is not binary COPY or ends inside a row', () => {
    expect(() => parseCopyRows([Buffer.from('not a copy stream at all')])).toThrow('not a binary COPY stream');
    const whole = copyStream(ROWS);
    expect(() => parseCopyRows([whole.subarray(0, whole.length - 10)])).toThrow('the COPY stream ended inside a row');
  });
});
