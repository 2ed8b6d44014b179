import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { decodeBase64Strict, decodedLength } from './base64.js';
import { StoreUnavailableError, type BlobSource } from '../stores/blob-store.js';
import type { ExpectedDigests } from '../download/http-conditions.js';
import type { BodyMemoryBudget } from '../../common/body-memory-budget.js';
import { bufferUpload, MEMORY_UPLOAD_MAX } from './upload-buffer.js';
import type { UploadTee } from './streamed-blob.js';
import { passUpload, spoolUpload, UploadAbortedError, UploadTooLargeError } from './upload-spool.js';

/**
 * Bytes received beforehand, hashed on the way (a resumable upload's): in a file, or in the
 * chunks of the postgres store under a temporary key (`chunks`, see BlobsRepository.adoptUpload).
 */
export interface ReceivedUpload {
  sha256: string;
  size: number;
  at: { path: string } | { chunks: string };
}

/**
 * The content of a create/update: base64 text from a JSON body, a raw request body, or the
 * bytes of a completed resumable upload.
 */
export type UploadContent =
  | { kind: 'base64'; data: string }
  | { kind: 'stream'; body: Readable; length?: number }
  | ({ kind: 'received' } & ReceivedUpload);

/** A resumable upload's bytes, in the postgres store's chunks under `chunks`: their digest and size. */
export interface HeldContent {
  sha256: string;
  size: number;
  chunks: string;
}

/** A raw upload that went into its store as it arrived (a StreamedBlob): its digest and size. */
export interface StreamedContent {
  sha256: string;
  size: number;
  streamed: true;
}

/**
 * Received bytes (or what is left of streamed ones), with a way to let go of them (a spooled
 * raw upload's file, a buffered one's memory).
 */
export type ReceivedContent = (BlobSource | StreamedContent | HeldContent) & { dispose?: () => Promise<void> };

/** Where and how an upload may be received. */
export interface ReceiveOptions {
  /** FILES_MAX_SIZE. */
  max: number;
  /** Where raw uploads are spooled; the system's temporary folder when not given. */
  spoolDir?: string;
  /** BODY_MEMORY_BUDGET: small raw uploads are received into memory when it has room for them. */
  memory?: BodyMemoryBudget;
  /** Where a large raw upload goes as it arrives (a StreamedBlob), instead of a spool file. */
  tee?: UploadTee;
}

/**
 * Takes an upload's bytes: decodes base64, takes those a resumable upload received, or receives a raw body into memory (up to
 * MEMORY_UPLOAD_MAX with its length announced, while BODY_MEMORY_BUDGET has room), into the
 * `tee` when there is one, or else into a temporary file, hashing them on the way; checks them
 * against the size limit and the digests the client sent.
 */
export async function receiveUpload(
  content: UploadContent,
  digests: ExpectedDigests,
  { max, spoolDir, memory, tee }: ReceiveOptions,
): Promise<ReceivedContent> {
  if (content.kind === 'base64') {
    if (decodedLength(content.data) > max) throw tooLarge(max);
    // Bad base64 throws a Base64Error: 400 with its message (common/input-error.ts).
    const bytes = decodeBase64Strict(content.data, 'data');
    const sha256 = createHash('sha256').update(bytes).digest();
    verifyDigests(digests, sha256, digests.md5 && createHash('md5').update(bytes).digest());
    return { bytes, sha256: sha256.toString('hex'), size: bytes.length };
  }
  if (content.kind === 'received') {
    if (content.size > max) throw tooLarge(max);
    verifyDigests(digests, Buffer.from(content.sha256, 'hex'), undefined);
    const { sha256, size } = content;
    return 'path' in content.at ? { path: content.at.path, sha256, size } : { chunks: content.at.chunks, sha256, size };
  }
  if (content.length !== undefined && content.length > max) throw tooLarge(max);
  const release =
    content.length !== undefined && content.length <= MEMORY_UPLOAD_MAX ? memory?.reserve(content.length) : null;
  if (release) return receiveIntoMemory(content.body, content.length!, digests, release);
  let spooled;
  try {
    if (tee) {
      const passed = await passUpload(content.body, max, digests.md5 !== undefined, tee);
      verifyDigests(digests, passed.sha256, passed.md5);
      return { sha256: passed.sha256.toString('hex'), size: passed.size, streamed: true };
    }
    // Spooled into the vault, the file becomes the blob: flushed to disk on the way.
    spooled = await spoolUpload(content.body, max, digests.md5 !== undefined, spoolDir, spoolDir !== undefined);
  } catch (e) {
    if (e instanceof UploadTooLargeError) throw tooLarge(max);
    if (e instanceof UploadAbortedError) throw new BadRequestException(e.message);
    // Spooled into the vault (see FileContent.spoolDir), which failed: the store is unusable.
    if (spoolDir && (e as NodeJS.ErrnoException).syscall) throw new StoreUnavailableError('filesystem', e);
    throw e;
  }
  try {
    verifyDigests(digests, spooled.sha256, spooled.md5);
  } catch (e) {
    await spooled.dispose();
    throw e;
  }
  return { path: spooled.path, size: spooled.size, sha256: spooled.sha256.toString('hex'), dispose: spooled.dispose };
}

/** The bytes hold their share of the memory budget until disposed of. */
async function receiveIntoMemory(
  body: Readable,
  length: number,
  digests: ExpectedDigests,
  release: () => void,
): Promise<ReceivedContent> {
  try {
    const got = await bufferUpload(body, length, digests.md5 !== undefined);
    verifyDigests(digests, got.sha256, got.md5);
    return { bytes: got.bytes, size: length, sha256: got.sha256.toString('hex'), dispose: async () => release() };
  } catch (e) {
    release();
    if (e instanceof UploadAbortedError) throw new BadRequestException(e.message);
    throw e;
  }
}

function tooLarge(max: number): PayloadTooLargeException {
  return new PayloadTooLargeException(`the file is larger than the limit of ${max} bytes (FILES_MAX_SIZE)`);
}

function verifyDigests(expected: ExpectedDigests, sha256: Buffer, md5: Buffer | undefined): void {
  if (expected.sha256 && !expected.sha256.equals(sha256)) {
    throw new BadRequestException(
      `the content does not match the SHA-256 digest sent (received content has sha-256=${sha256.toString('base64')}); nothing was stored`,
    );
  }
  if (expected.md5 && md5 && !expected.md5.equals(md5)) {
    throw new BadRequestException(
      `the content does not match the MD5 digest sent (received content has md5=${md5.toString('base64')}); nothing was stored`,
    );
  }
}
