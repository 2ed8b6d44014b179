import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { UploadAbortedError } from './upload-spool.js';

/**
 * Raw uploads up to this size whose length is announced are received into memory (within
 * BODY_MEMORY_BUDGET) instead of a spool file: for them, creating, writing, reading back and
 * removing the file cost more than receiving the bytes.
 */
export const MEMORY_UPLOAD_MAX = 4 * 1024 * 1024;

/** A raw upload received into memory, with its digests. */
export interface BufferedUpload {
  bytes: Buffer;
  sha256: Buffer;
  /** Only when asked for (Content-MD5 or an md5 Digest). */
  md5?: Buffer;
}

/**
 * Reads a body of announced length into one buffer, hashing the pieces as they arrive. Fails
 * with UploadAbortedError when the body ends early (the client went away); the rest of a body
 * is then drained and discarded.
 */
export function bufferUpload(body: Readable, length: number, withMd5: boolean): Promise<BufferedUpload> {
  const bytes = Buffer.allocUnsafe(length);
  const sha256 = createHash('sha256');
  const md5 = withMd5 ? createHash('md5') : null;
  let size = 0;
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('close', onClose);
      body.off('error', onError);
      if (!error) return resolve({ bytes, sha256: sha256.digest(), md5: md5?.digest() });
      body.resume();
      reject(error);
    };
    const onData = (piece: Buffer) => {
      // HTTP delivers no more than the Content-Length; anything else is a bug, not a client's doing.
      if (size + piece.length > length) return finish(new Error(`the body is longer than its length ${length}`));
      piece.copy(bytes, size);
      size += piece.length;
      sha256.update(piece);
      md5?.update(piece);
    };
    const onEnd = () => finish(size === length ? undefined : new UploadAbortedError());
    // A request received whole may close before its last pieces were read: 'end' still comes.
    const onClose = () => {
      if (!(body as { complete?: boolean }).complete) finish(new UploadAbortedError());
    };
    const onError = () => finish(new UploadAbortedError());
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('close', onClose);
    body.once('error', onError);
  });
}
