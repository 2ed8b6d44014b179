import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bool,
  intIn,
  optionalHttpUrl,
  parseSize,
  sizeOrZero,
  sizeUpTo,
  text,
  type ConfigSpec,
} from './config-parsers.js';

export const FILES_STORES = ['postgres', 'filesystem', 's3'] as const;
export type FilesStoreName = (typeof FILES_STORES)[number];

/** The file service's part of the configuration: sizes, caches, the sweep and the blob stores. */
export interface FilesConfig {
  /** Largest file the file service stores (413 past it); see docs/files.md for JSON_BODY_LIMIT. */
  filesMaxSize: number;
  /** How often file bytes no file uses any more are deleted (after an hour's grace); 0 = never. */
  filesSweepIntervalMs: number;
  /**
   * Bytes in the vault or S3 that no content_blobs row names are removed by the sweep's walk of
   * the store once written longer ago than this (longer than any upload takes).
   */
  filesStoreSweepGraceMs: number;
  /** Blobs that walk lists per second at most; 0: no walk. */
  filesStoreSweepRate: number;
  /** Bytes of recently downloaded small files kept in memory; 0 = none. */
  filesCacheSize: number;
  /** Largest file kept in that cache (at most 64 MiB). */
  filesCacheMaxFile: number;
  /** Where larger files read lately are kept on local disk. */
  filesDiskCacheDir: string;
  /** Bytes of files kept there; 0 = none. */
  filesDiskCacheSize: number;
  /** Where new file bytes are written (see docs/files.md); reads follow each blob's recorded store. */
  filesStore: FilesStoreName;
  /** The vault directory of the filesystem store; empty when none is configured. */
  filesVaultDir: string;
  /** The S3-compatible service: endpoint URL (empty: AWS S3), region, bucket (empty: none configured). */
  filesS3Endpoint: string;
  filesS3Region: string;
  filesS3Bucket: string;
  /** Credentials; both empty: the AWS SDK's default chain (environment, profile, instance role). */
  filesS3AccessKeyId: string;
  filesS3SecretAccessKey: string;
  /** Path-style addressing (endpoint/bucket/key), which MinIO, Ceph and most self-hosted services need. */
  filesS3ForcePathStyle: boolean;
  /** Prepended to every object key, e.g. "pdm/blobs/". */
  filesS3Prefix: string;
  /** Most objects one ZIP download or collection holds (400 before the first byte past it). */
  filesZipMaxObjects: number;
  /** Most bytes of files one ZIP download or collection holds (400 before the first byte past it). */
  filesZipMaxBytes: number;
  /**
   * Where the parts of resumable (tus) uploads are kept until they complete when new bytes go to
   * the vault or S3: one file per upload. Several instances behind a load balancer need it on a
   * shared volume. (With the postgres store the parts go into the database.)
   */
  filesTusDir: string;
  /** An unfinished resumable upload expires this long after it was created, and is swept. */
  filesTusExpiryMs: number;
  /** How often expired resumable uploads are swept; 0 = never. */
  filesTusSweepIntervalMs: number;
  /** Bytes of unfinished resumable uploads (their declared lengths) one user may have at once. */
  filesTusUserMaxBytes: number;
  /** Unfinished resumable uploads one user may have at once. */
  filesTusUserMaxUploads: number;
}

function filesStore(raw: string): FilesStoreName {
  const v = raw.trim().toLowerCase();
  if (!(FILES_STORES as readonly string[]).includes(v))
    throw new Error(`"${raw}" is not one of ${FILES_STORES.join(', ')}`);
  return v as FilesStoreName;
}

function s3Prefix(raw: string): string {
  const v = raw.trim();
  if (v.startsWith('/') || /[\\\x00-\x1f]/.test(v)) throw new Error(`"${raw}" is not a key prefix like pdm/blobs/`);
  return v;
}

export const FILES_SPEC: ConfigSpec<FilesConfig> = {
  filesMaxSize: ['FILES_MAX_SIZE', '100mb', parseSize],
  filesSweepIntervalMs: ['FILES_SWEEP_INTERVAL_MS', '3600000', intIn(0, 604_800_000)],
  filesStoreSweepGraceMs: ['FILES_STORE_SWEEP_GRACE_MS', '86400000', intIn(3_600_000, 2_592_000_000)],
  filesStoreSweepRate: ['FILES_STORE_SWEEP_RATE', '1000', intIn(0, 1_000_000)],
  filesCacheSize: ['FILES_CACHE_SIZE', '64mb', sizeOrZero],
  // Such a file is read whole into memory before it is sent: kept small.
  filesCacheMaxFile: ['FILES_CACHE_MAX_FILE', '4mb', sizeUpTo(64 * 1024 ** 2)],
  filesDiskCacheDir: ['FILES_DISK_CACHE_DIR', join(tmpdir(), 'pdm-file-cache'), text],
  filesDiskCacheSize: ['FILES_DISK_CACHE_SIZE', '1gb', sizeOrZero],
  filesStore: ['FILES_STORE', 'postgres', filesStore],
  filesVaultDir: ['FILES_VAULT_DIR', '', text],
  filesS3Endpoint: ['FILES_S3_ENDPOINT', '', optionalHttpUrl],
  filesS3Region: ['FILES_S3_REGION', 'us-east-1', text],
  filesS3Bucket: ['FILES_S3_BUCKET', '', text],
  filesS3AccessKeyId: ['FILES_S3_ACCESS_KEY_ID', '', text],
  filesS3SecretAccessKey: ['FILES_S3_SECRET_ACCESS_KEY', '', text],
  filesS3ForcePathStyle: ['FILES_S3_FORCE_PATH_STYLE', 'false', bool],
  filesS3Prefix: ['FILES_S3_PREFIX', '', s3Prefix],
  filesZipMaxObjects: ['FILES_ZIP_MAX_OBJECTS', '1000', intIn(1, 1_000_000)],
  filesZipMaxBytes: ['FILES_ZIP_MAX_BYTES', '10gb', parseSize],
  filesTusDir: ['FILES_TUS_DIR', join(tmpdir(), 'pdm-tus-uploads'), text],
  filesTusExpiryMs: ['FILES_TUS_EXPIRY_MS', '86400000', intIn(60_000, 2_592_000_000)],
  filesTusSweepIntervalMs: ['FILES_TUS_SWEEP_INTERVAL_MS', '600000', intIn(0, 604_800_000)],
  filesTusUserMaxBytes: ['FILES_TUS_USER_MAX_BYTES', '1gb', parseSize],
  filesTusUserMaxUploads: ['FILES_TUS_USER_MAX_UPLOADS', '20', intIn(1, 100_000)],
};

/** What the chosen file store needs besides its name. */
export function filesStoreProblems(c: FilesConfig & { databaseUrl: string; httpRequestTimeoutMs: number }): string[] {
  const problems: string[] = [];
  if (c.filesStore !== 'postgres' && c.databaseUrl === '') {
    problems.push(
      `FILES_STORE: "${c.filesStore}" needs DATABASE_URL; the embedded database keeps file bytes in PostgreSQL only (FILES_STORE=postgres)`,
    );
  }
  if (c.filesStore === 'filesystem' && c.filesVaultDir === '') {
    problems.push('FILES_VAULT_DIR: needed with FILES_STORE=filesystem (the vault directory, e.g. a shared volume)');
  }
  if (c.filesStore === 's3' && c.filesS3Bucket === '') {
    problems.push('FILES_S3_BUCKET: needed with FILES_STORE=s3');
  }
  if (c.filesStoreSweepGraceMs <= c.httpRequestTimeoutMs) {
    problems.push(
      `FILES_STORE_SWEEP_GRACE_MS: ${c.filesStoreSweepGraceMs} must be longer than HTTP_REQUEST_TIMEOUT_MS (${c.httpRequestTimeoutMs}), which an upload may take`,
    );
  }
  if ((c.filesS3AccessKeyId === '') !== (c.filesS3SecretAccessKey === '')) {
    problems.push('FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY: give both or neither');
  }
  return problems;
}
