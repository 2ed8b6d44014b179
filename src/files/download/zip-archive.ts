import { Logger } from '@nestjs/common';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { KeptFile } from '../cache/disk-cache.js';

/** A file of an archive: its path in it, its size, and how to open its bytes when its turn comes. */
export interface ZipEntry {
  path: string;
  size: number;
  open(): Promise<Readable | KeptFile>;
}

export interface ZipArchive {
  /** The archive's bytes; destroying it (the client went away) stops the reads. */
  stream: Readable;
  /** Its length in bytes, known before the first byte (the files are stored, not compressed). */
  length: number;
}

/**
 * Streams a ZIP archive (ZIP64 where sizes or offsets pass 4 GiB) of `first` (written whole:
 * the manifest) and `entries`, stored without compression: the files of a PDM vault are mostly
 * compressed already, and stored entries let the length be known before the first byte. The
 * bytes of one file are opened only when the archive reaches it and flow with backpressure, so
 * memory stays flat whatever the total. When the stream is destroyed before its end, the file
 * being read is destroyed too (releasing its connection or file) and no other is opened; a file
 * that cannot be read destroys the stream with its error (the answer is cut short).
 */
export function zipArchive(first: { path: string; bytes: Buffer }, entries: ZipEntry[], mtime: Date): ZipArchive {
  const zip = new ZipFile();
  const out = zip.outputStream as unknown as Readable;
  let current: Readable | null = null;
  let opened = 0;
  let finished = false;
  let stopped = false;
  const stop = (e?: Error) => {
    if (stopped) return;
    stopped = true;
    current?.destroy();
    closeAhead();
    if (e) out.destroy(e);
  };
  out.once('end', () => (finished = true));
  out.once('close', () => {
    if (finished) return;
    if (!stopped) {
      new Logger('Files').log(`a ZIP archive stopped after ${opened} of ${entries.length} files: the client went away`);
    }
    stop();
  });
  zip.on('error', (e: Error) => stop(e));

  // The next file is opened while the one before it is sent: its first read (a round trip to
  // the database or the bucket) overlaps with sending, instead of stalling the archive between
  // files. At most two files are open at a time.
  const ahead = new Map<number, Promise<Readable>>();
  const openEntry = (i: number): Promise<Readable> => {
    let pending = ahead.get(i);
    if (!pending) {
      opened++;
      pending = entries[i].open().then((bytes) => (bytes instanceof KeptFile ? keptStream(bytes) : bytes));
      // An error is taken where the stream is awaited; a stream opened for nothing is closed.
      pending.catch(() => undefined);
      ahead.set(i, pending);
    }
    return pending;
  };
  const readAhead = (after: number) => {
    const next = entries.findIndex((e, i) => i > after && e.size > 0);
    if (next >= 0 && !stopped) void openEntry(next);
  };
  const closeAhead = () => {
    for (const pending of ahead.values())
      void pending.then(
        (stream) => stream.destroy(),
        () => undefined,
      );
    ahead.clear();
  };

  zip.addBuffer(first.bytes, first.path, { mtime, compress: false });
  entries.forEach((entry, i) => {
    if (entry.size === 0) {
      zip.addBuffer(Buffer.alloc(0), entry.path, { mtime, compress: false });
      return;
    }
    zip.addReadStreamLazy(entry.path, { mtime, compress: false, size: entry.size }, (done) => {
      if (stopped) return;
      const pending = openEntry(i);
      ahead.delete(i);
      readAhead(i);
      pending.then(
        (stream) => {
          if (stopped) {
            stream.destroy();
            return;
          }
          current = stream;
          // yazl pipes the stream on and does not listen for its errors.
          stream.once('error', (e: Error) => stop(e));
          done(null, stream);
        },
        (e: Error) => stop(e),
      );
    });
  });
  let length = -1;
  // The callback is given the total (typed without it); stored entries of known sizes give it at once.
  const end = zip.end.bind(zip) as (options: { forceZip64Format: boolean }, sized: (total: number) => void) => void;
  // yazl 3.3.1 counts the ZIP64 end records (76 bytes) in the total once the central directory
  // comes to 0xffff bytes (it compares it with 0xffff, not 0xffffffff), about a thousand files,
  // but writes them only past the real limits: the archive would be announced longer than it
  // is, and the client would wait for bytes that never come. Then the records are written too.
  // (Past 4 GiB the records are counted and written anyway, so the ZIP64 fields of the entries,
  // not counted here, never decide it.)
  const directory = [first.path, ...entries.map((e) => e.path)].reduce((sum, path) => sum + directoryRecord(path), 0);
  end({ forceZip64Format: directory >= 0xffff }, (total) => (length = total));
  if (length < 0) throw new Error('the length of a stored ZIP archive was not known');
  return { stream: out, length };
}

/** The bytes of an entry's central directory record without ZIP64 fields: fixed part, name, extended timestamp. */
function directoryRecord(path: string): number {
  return 46 + Buffer.byteLength(path) + 9;
}

/** A file kept in the disk cache as a stream (it owns the descriptor and closes it). */
function keptStream(kept: KeptFile): Readable {
  return createReadStream('', { fd: kept.fd, start: kept.start, end: kept.end, autoClose: true });
}
