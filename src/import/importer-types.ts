import type { Prisma } from '../generated/prisma/client.js';
import { putBlob } from '../files/stores/blob-chunks.repository.js';

/** What an import is asked to do and what it reports: see importDataset (importer.ts). */

export interface ImportSummary {
  roles: number;
  users: number;
  containers: number;
  workspaces: number;
  /** Classes and soft types declared, and extensions of standard classes. */
  types: number;
  objects: number;
  files: number;
  links: number;
  reports: number;
}

type Tx = Prisma.TransactionClient;

/**
 * Where an import puts the bytes of its files: a blob (its SHA-256 and size) that content items
 * written in the import's transaction may use. By default in PostgreSQL, inside that transaction
 * (putBlob); import-blobs.ts writes them to the vault or S3 first.
 */
export interface ImportBlobs {
  put(tx: Tx, bytes: Buffer): Promise<{ sha256: string; size: number }>;
}

/** File bytes in PostgreSQL, written in the import's transaction: stored with it or not at all. */
export const POSTGRES_IMPORT_BLOBS: ImportBlobs = { put: putBlob };

/** Orders iterations: version letters by length then alphabet (A < Z < AA), then iteration. */
export function compareIterations(
  a: { version: string; iteration: number },
  b: { version: string; iteration: number },
) {
  if (a.version.length !== b.version.length) return a.version.length - b.version.length;
  if (a.version !== b.version) return a.version < b.version ? -1 : 1;
  return a.iteration - b.iteration;
}

export interface ImportOptions {
  /**
   * The user the import is made as (default `admin`): the creator of records without `createdBy`,
   * and the user of its audit event. A user stored or in the dataset; the default one only needs
   * to be when a record leaves out `createdBy`.
   */
  importingUser?: string;
  /** Where the dataset came from, for the audit event (default `dataset`). */
  source?: string;
  /** Most usage links one iteration may hold, as OBJECTS_MAX_LINKS for /objects (default 10 000). */
  maxLinks?: number;
  /** Where file bytes go (default: PostgreSQL, in the import's transaction). */
  blobs?: ImportBlobs;
  /** Told how far the import is: when it starts storing, after each object, file and link, and at the end. */
  progress?: (progress: ImportProgress) => void;
}

/** How much of the dataset an import has stored so far (in its transaction, so nothing is committed before the end). */
export interface ImportProgress {
  /** Business objects and objects of plain catalog classes. */
  objects: number;
  totalObjects: number;
  files: number;
  totalFiles: number;
  /** Bytes of the files stored. */
  bytes: number;
  totalBytes: number;
  /** Usage links and links of catalog link classes. */
  links: number;
  totalLinks: number;
}
