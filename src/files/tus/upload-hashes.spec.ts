import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { UploadHashes } from './upload-hashes.js';

const hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('UploadHashes', () => {
  const bytes = Buffer.from('the first part, then the second');
  const stored = (upTo: number) => () => Promise.resolve(Readable.from([bytes.subarray(0, upTo)]));

  it('carries on from the kept hash, a copy of it, without reading the stored bytes', async () => {
    const hashes = new UploadHashes();
    const first = await hashes.at('u', 0, () => Promise.reject(new Error('nothing is stored yet')));
    first.update(bytes.subarray(0, 14));
    hashes.keep('u', 14, first);
    const unread = () => Promise.reject(new Error('the stored bytes were read'));
    const twice = await hashes.at('u', 14, unread);
    twice.update(Buffer.from('something else'));
    // A part that failed leaves the kept hash as it was.
    const again = await hashes.at('u', 14, unread);
    again.update(bytes.subarray(14));
    expect(again.digest('hex')).toBe(hex(bytes));
  });

  it('computes the hash again from the stored bytes when it is not kept or its offset differs', async () => {
    const hashes = new UploadHashes();
    expect((await hashes.at('u', bytes.length, stored(bytes.length))).digest('hex')).toBe(hex(bytes));
    const kept = await hashes.at('u', 0, stored(0));
    kept.update(bytes.subarray(0, 5));
    hashes.keep('u', 5, kept);
    const other = await hashes.at('u', 14, stored(14));
    other.update(bytes.subarray(14));
    expect(other.digest('hex')).toBe(hex(bytes));
    hashes.clear();
    await expect(hashes.at('u', 14, stored(10))).rejects.toThrow('resumable upload u: 10 bytes stored, not 14');
  });
});
