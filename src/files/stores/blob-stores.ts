import type pg from 'pg';
import type { AppConfig } from '../../config/app-config.js';
import { StoreUnavailableError, type BlobStore, type StoreName } from './blob-store.js';
import { BlobsRepository } from './blobs.repository.js';
import { PostgresBlobStore } from './postgres-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';
import { VaultBlobStore } from './vault-blob-store.js';

/** The variables that configure the stores (FILES_STORE, FILES_VAULT_DIR, FILES_S3_*). */
export type BlobStoresConfig = Pick<
  AppConfig,
  | 'filesStore'
  | 'filesVaultDir'
  | 'filesS3Endpoint'
  | 'filesS3Region'
  | 'filesS3Bucket'
  | 'filesS3AccessKeyId'
  | 'filesS3SecretAccessKey'
  | 'filesS3ForcePathStyle'
  | 'filesS3Prefix'
>;

/**
 * The stores this instance can reach: postgres always, the vault when FILES_VAULT_DIR is set,
 * S3 when FILES_S3_BUCKET is. New bytes go to FILES_STORE; each blob is read from the store
 * its row names, so content that is being moved between stores stays readable throughout.
 * Bytes are written through BlobWriter (blob-writer.ts); which store holds a blob is recorded in
 * content_blobs (`blobs`), in the database of `pool`.
 */
export class BlobStores {
  readonly blobs: BlobsRepository;
  readonly postgres: PostgresBlobStore;
  readonly vault: VaultBlobStore | null;
  readonly s3: S3BlobStore | null;
  /** Where new bytes are written. */
  readonly current: StoreName;

  constructor(pool: pg.Pool, config: BlobStoresConfig) {
    this.blobs = new BlobsRepository(pool);
    this.postgres = new PostgresBlobStore(this.blobs);
    this.vault = config.filesVaultDir ? new VaultBlobStore(config.filesVaultDir) : null;
    this.s3 = config.filesS3Bucket
      ? new S3BlobStore({
          endpoint: config.filesS3Endpoint,
          region: config.filesS3Region,
          bucket: config.filesS3Bucket,
          accessKeyId: config.filesS3AccessKeyId,
          secretAccessKey: config.filesS3SecretAccessKey,
          forcePathStyle: config.filesS3ForcePathStyle,
          prefix: config.filesS3Prefix,
        })
      : null;
    this.current = config.filesStore;
  }

  /**
   * Opens the vault (a vault that cannot be written stops the start when it is where new bytes
   * go) and asks the bucket whether it answers. Returns warnings for the log.
   */
  async open(): Promise<string[]> {
    const warnings: string[] = [];
    if (this.vault) {
      try {
        await this.vault.open();
      } catch (e) {
        const message = `FILES_VAULT_DIR ${this.vault.dir}: ${(e as Error).message}`;
        if (this.current === 'filesystem') throw new Error(message);
        warnings.push(message);
      }
    }
    const s3Problem = this.s3 ? await this.s3.check() : null;
    if (s3Problem) warnings.push(`FILES_S3_BUCKET: ${s3Problem}; uploads and downloads from S3 fail until it answers`);
    return warnings;
  }

  /** The store of this name; StoreUnavailableError when this instance is not configured for it. */
  get(name: StoreName): BlobStore {
    const store = name === 'postgres' ? this.postgres : name === 'filesystem' ? this.vault : this.s3;
    if (!store) {
      const needs = name === 'filesystem' ? 'FILES_VAULT_DIR' : 'FILES_S3_BUCKET';
      throw new StoreUnavailableError(name, new Error(`this instance has no ${name} store configured (${needs})`));
    }
    return store;
  }

  /** Every configured store. */
  all(): BlobStore[] {
    return [this.postgres, this.vault, this.s3].filter((s): s is NonNullable<typeof s> => s !== null);
  }

  async close(): Promise<void> {
    await Promise.all(this.all().map((s) => s.close()));
  }
}
