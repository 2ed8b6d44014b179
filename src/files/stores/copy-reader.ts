/**
 * Parses the rows of a batch of blob chunks read with binary COPY (blob-chunks.repository.ts).
 */

/** Chunks fetched per COPY when streaming: few round trips, 4 MiB per batch. */
export const CHUNKS_PER_BATCH = 16;

/** A chunk as read: its bytes are slices of the pieces the COPY stream arrived in, not a copy. */
export interface ChunkRow {
  seq: number;
  parts: Buffer[];
  length: number;
}

const COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * The (seq int4, data bytea) rows of a binary COPY (signature, flags, header extension, rows,
 * -1), read across the pieces the stream arrived in without joining them: a batch is megabytes,
 * and copying it once more costs time and garbage.
 */
export function parseCopyRows(pieces: Buffer[]): ChunkRow[] {
  const input = new PieceReader(pieces);
  if (!input.bytes(COPY_SIGNATURE.length).equals(COPY_SIGNATURE)) throw new Error('not a binary COPY stream');
  input.int32(); // flags
  input.skip(input.int32()); // header extension
  const rows: ChunkRow[] = [];
  for (let fields = input.int16(); fields !== -1; fields = input.int16()) {
    if (fields !== 2) throw new Error(`a COPY row of ${fields} fields, expected 2`);
    input.int32(); // length of seq
    const seq = input.int32();
    const length = input.int32();
    rows.push({ seq, parts: input.slices(length), length });
  }
  return rows;
}

/** Reads big-endian integers and byte runs from a list of buffers as if they were one. */
class PieceReader {
  private index = 0;
  private offset = 0;

  constructor(private readonly pieces: Buffer[]) {}

  int16(): number {
    return this.bytes(2).readInt16BE(0);
  }

  int32(): number {
    return this.bytes(4).readInt32BE(0);
  }

  skip(n: number): void {
    this.slices(n);
  }

  /** n bytes in one buffer: a slice when they lie in one piece, else a (small) copy. */
  bytes(n: number): Buffer {
    const parts = this.slices(n);
    return parts.length === 1 ? parts[0] : Buffer.concat(parts, n);
  }

  /** The next n bytes as slices of the pieces. */
  slices(n: number): Buffer[] {
    const out: Buffer[] = [];
    while (n > 0) {
      const piece = this.pieces[this.index];
      if (!piece) throw new Error('the COPY stream ended inside a row');
      const take = Math.min(n, piece.length - this.offset);
      if (take > 0) out.push(piece.subarray(this.offset, this.offset + take));
      n -= take;
      this.offset += take;
      if (this.offset === piece.length) {
        this.index++;
        this.offset = 0;
      }
    }
    return out;
  }
}
