import pg from 'pg';
import { sha256Hex } from '../files/stores/blob-store.js';
import { BlobStores, type BlobStoresConfig } from '../files/stores/blob-stores.js';
import { BlobWriter } from '../files/stores/blob-writer.js';
import { guardPool } from '../prisma/pg-connection-loss.js';
import type { ImportBlobs } from './importer.js';

/**
 * File bytes of an import written to the vault or S3 (FILES_STORE filesystem or s3) the way an
 * upload writes them (BlobWriter.save): each blob is claimed in content_blobs and its bytes made
 * durable in the store before the import's transaction writes the content item that uses it, so
 * no committed row ever names bytes that are not there. Bytes stored before, in whichever store,
 * are not written again, and each blob is written once per import however many files use it.
 *
 * The claim commits on its own, before the import does: an import that fails later leaves the
 * claimed blobs without content items, and the sweep removes them (rows and bytes) once they are
 * older than its grace period, as it does for an upload whose file row was never written. A
 * content item written by the import holds its blob's row (the foreign key's lock) until the
 * import commits, so the sweep never takes a blob the import uses.
 */
export class StoreImportBlobs implements ImportBlobs {
  /** Blobs this import has stored already. */
  private readonly stored = new Set<string>();

  private readonly writer: BlobWriter;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly stores: BlobStores,
  ) {
    // Only ever external stores here (the postgres store's bytes go in the import's transaction): no COPY.
    this.writer = new BlobWriter(stores, false);
  }

  /**
   * Opens the stores configured in `config` on the database at `databaseUrl` (a vault that
   * cannot be written fails here; an S3 service that does not answer fails the first write).
   */
  static async open(databaseUrl: string, config: BlobStoresConfig): Promise<StoreImportBlobs> {
    // A lost connection fails the statement using it (and so the import), never the process.
    const pool = guardPool(new pg.Pool({ connectionString: databaseUrl, max: 2 }), () => undefined);
    const stores = new BlobStores(pool, config);
    try {
      await stores.open();
      stores.get(config.filesStore);
    } catch (e) {
      await stores.close();
      await pool.end();
      throw e;
    }
    return new StoreImportBlobs(pool, stores);
  }

  async put(_tx: unknown, bytes: Buffer): Promise<{ sha256: string; size: number }> {
    const sha256 = sha256Hex(bytes);
    if (!this.stored.has(sha256)) {
      await this.writer.save({ sha256, size: bytes.length, bytes });
      this.stored.add(sha256);
    }
    return { sha256, size: bytes.length };
  }

  async close(): Promise<void> {
    await this.stores.close();
    await this.pool.end();
  }
}
