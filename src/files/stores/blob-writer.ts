import type pg from 'pg';
import { claimBlob, releaseClaim } from './blobs.repository.js';
import type { BlobSource, BlobStore, StoreName } from './blob-store.js';
import type { BlobStores } from './blob-stores.js';
import { inTransaction } from './copy-reader.js';
import { upsertPostgresBlob, writeBlobChunks } from './postgres-blob-store.js';
import { StreamedBlob } from '../upload/streamed-blob.js';

/**
 * The one way bytes get into a store and recorded in content_blobs: uploads (in memory, spooled
 * or streamed), dataset imports into the vault or S3, and moves between stores all go through
 * it. Whatever the path:
 *
 * - the bytes are durable before anything that uses them commits: in PostgreSQL they commit
 *   with their row (asynchronously, see upsertPostgresBlob); in an external store the blob is
 *   claimed first (claimBlob: the sweep then leaves it alone) and its bytes written after;
 * - bytes stored before, in whichever store, are not written again (deduplication by SHA-256),
 *   unless the store their row names has lost them;
 * - a write that fails leaves nothing a file row could use: the PostgreSQL transaction is rolled
 *   back, a claim this write made is released, and whatever is still left (a claim whose content
 *   item never came) is swept once older than the grace period.
 *
 * The chunks of the postgres store go with one binary COPY (`copy`), or one INSERT each on the
 * embedded database, which cannot take COPY FROM.
 */
export class BlobWriter {
  constructor(
    private readonly pool: pg.Pool,
    private readonly stores: BlobStores,
    private readonly copy: boolean,
  ) {}

  /**
   * Makes bytes whose hash is known durable in the store new bytes go to and recorded in
   * content_blobs, before the content item that uses them is written.
   */
  async save(source: BlobSource): Promise<void> {
    if (this.stores.current === 'postgres') {
      const { store } = await this.saveInPostgres(source);
      if (store !== 'postgres') await ensureInStore(this.stores.get(store), source);
      return;
    }
    const claim = await claimBlob(this.pool, source.sha256, source.size, this.stores.current);
    if (claim.store === 'postgres') return; // written with its row, in one transaction
    try {
      await ensureInStore(this.stores.get(claim.store), source);
    } catch (e) {
      await releaseClaim(this.pool, source.sha256, claim).catch(() => undefined);
      throw e;
    }
  }

  /**
   * Starts copying `length` bytes into the postgres store while they are received (see
   * StreamedBlob); commit them with finishStreamed once their digest is known.
   */
  stream(length: number, onClose: () => void): Promise<StreamedBlob> {
    return StreamedBlob.start(this.pool, length, onClose);
  }

  /**
   * Commits bytes streamed into PostgreSQL under their SHA-256: dropped when the blob is stored
   * already, unless the store its row names has lost them (then the blob moves to PostgreSQL).
   */
  finishStreamed(streamed: StreamedBlob, sha256: string, size: number): Promise<void> {
    return streamed.finish(sha256, (store) => this.stores.get(store).has(sha256, size));
  }

  /**
   * Moves a blob recorded in `from` to `to` (bytes read and checked already, in `source`): the
   * bytes are written to `to`, then the row switched to it in one statement; false when the row
   * was not in `from` any more (deleted or moved meanwhile). Into PostgreSQL, the chunks are
   * written while the row is locked, in the transaction that switches it; out of PostgreSQL,
   * the chunks go in the transaction that switches the row.
   */
  async move(source: BlobSource, from: StoreName, to: StoreName): Promise<boolean> {
    if (to === 'postgres') {
      return inTransaction(this.pool, async (client) => {
        const locked = await client.query('SELECT 1 FROM content_blobs WHERE sha256 = $1 AND store = $2 FOR UPDATE', [
          source.sha256,
          from,
        ]);
        if (!locked.rowCount) return false;
        await client.query('DELETE FROM blob_chunks WHERE sha256 = $1', [source.sha256]);
        await writeBlobChunks(client, source, this.copy);
        await client.query(`UPDATE content_blobs SET store = 'postgres' WHERE sha256 = $1`, [source.sha256]);
        return true;
      });
    }
    await ensureInStore(this.stores.get(to), source);
    return inTransaction(this.pool, async (client) => {
      const res = await client.query('UPDATE content_blobs SET store = $3 WHERE sha256 = $1 AND store = $2', [
        source.sha256,
        from,
        to,
      ]);
      if (res.rowCount && from === 'postgres') {
        await client.query('DELETE FROM blob_chunks WHERE sha256 = $1', [source.sha256]);
      }
      return Boolean(res.rowCount);
    });
  }

  /**
   * Stores a blob in PostgreSQL in a transaction of its own (committed on return). A blob that
   * exists is not written again, but its stored_at is refreshed (see sweepOrphanBlobs); two
   * uploads of the same new bytes serialise on the content_blobs key, and the second skips.
   * Returns the store that holds the blob: another one when the bytes were stored there before.
   */
  private saveInPostgres(source: BlobSource): Promise<{ store: StoreName }> {
    return inTransaction(this.pool, async (client) => {
      const { inserted, store } = await upsertPostgresBlob(client, source.sha256, source.size);
      if (inserted) await writeBlobChunks(client, source, this.copy);
      return { store };
    });
  }
}

/** Writes the bytes to the store unless it holds them whole already. */
async function ensureInStore(store: BlobStore, source: BlobSource): Promise<void> {
  if (!(await store.has(source.sha256, source.size))) await store.write(source);
}
