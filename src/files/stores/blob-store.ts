import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FilesStoreName } from '../../config/app-config.js';

/**
 * Where file bytes live. Every blob is named by its SHA-256 and never changes once stored, so a
 * store needs no coordination beyond "write whole, then make visible": two uploads of the same
 * bytes write the same thing. What a blob is (size, digest) and which store holds it are rows of
 * content_blobs in PostgreSQL (see blobs.repository.ts); a store holds bytes only.
 *
 * - postgres: blob_chunks rows (postgres-blob-store.ts), the default
 * - filesystem: a vault directory, e.g. a shared volume (vault-blob-store.ts)
 * - s3: an S3-compatible bucket (s3-blob-store.ts)
 */
export type StoreName = FilesStoreName;

export interface BlobStore {
  readonly name: StoreName;
  /** Whether the store holds the blob whole (a write that was cut off is not there). */
  has(sha256: string, size: number): Promise<boolean>;
  /**
   * Writes the bytes under their SHA-256 and returns once they are durable; writing bytes that
   * are there already is harmless. Throws StoreUnavailableError when the store cannot be reached.
   */
  write(source: BlobSource): Promise<void>;
  /**
   * The bytes (or a range of them) as a stream that fails rather than ends short. Opening
   * (the promise) fails before any byte when the blob is missing (BlobMissingError) or the
   * store unreachable (StoreUnavailableError).
   */
  read(sha256: string, size: number, range?: BlobRange): Promise<Readable>;
  /** All bytes of a small blob. */
  readWhole(sha256: string, size: number): Promise<Buffer>;
  /** Removes the bytes; removing what is not there is harmless. */
  delete(sha256: string): Promise<void>;
  /** Removes what writes of a killed process left behind (temporary files), older than maxAgeMs. */
  removeLeftovers(maxAgeMs: number): Promise<number>;
  /**
   * The blobs the store holds, a page at a time, for the walk that finds bytes no row names
   * (store-walk.ts): only names that are a blob's (a SHA-256 in lowercase hex), never temporary
   * files or objects of others. The postgres store lists nothing: its chunks go with their row.
   */
  list(): AsyncIterable<StoredObject[]>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

/** Bytes to store whose hash is already known: in memory, or in a file (a spooled upload). */
export type BlobSource = { sha256: string; size: number } & ({ bytes: Buffer } | { path: string });

/** A blob found in a store by list(). */
export interface StoredObject {
  sha256: string;
  size: number;
  /** When it was written, in ms since the epoch: the vault file's mtime, the object's Last-Modified. */
  writtenAt: number;
}

/** The name of a blob in a store: its SHA-256 in lowercase hex. */
export const BLOB_NAME = /^[0-9a-f]{64}$/;

/** An inclusive byte range. */
export interface BlobRange {
  start: number;
  end: number;
}

/** The store could not be reached or refused to work: the request is answered 503. */
export class StoreUnavailableError extends Error {
  constructor(
    readonly store: StoreName,
    cause: unknown,
  ) {
    super(`the file store (${store}) is not available: ${describe(cause)}`, { cause });
  }
}

/** Bytes that were read do not match their recorded SHA-256 or size. */
export class BlobIntegrityError extends Error {}

/** The store does not hold the bytes of a blob that content_blobs says it holds. */
export class BlobMissingError extends Error {
  constructor(
    readonly store: StoreName,
    readonly sha256: string,
  ) {
    super(`blob ${sha256} is not in the ${store} store`);
  }
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    return code && !e.message.includes(code) ? `${e.name}: ${e.message} (${code})` : `${e.name}: ${e.message}`;
  }
  return String(e);
}
