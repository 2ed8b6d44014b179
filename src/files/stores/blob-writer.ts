import { StreamedBlob } from '../upload/streamed-blob.js';
import type { BlobSource, BlobStore, StoreName } from './blob-store.js';
import type { BlobStores } from './blob-stores.js';
import { CHUNK_SIZE } from './chunk-writer.js';

/**
 * The one way bytes get into a store and recorded in content_blobs: uploads (in memory, spooled
 * or streamed), dataset imports into the vault or S3, and moves between stores all go through
 * it. Whatever the path:
 *
 * - the bytes are durable before anything that uses them commits: in PostgreSQL they commit
 *   with their row (asynchronously, see BlobsRepository.upsertPostgres); in an external store the
 *   blob is claimed first (BlobsRepository.claim: the sweep then leaves it alone) and its bytes written after;
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
    private readonly stores: BlobStores,
    private readonly copy: boolean,
  ) {}

  /**
   * Makes bytes whose hash is known durable in the store new bytes go to and recorded in
   * content_blobs, before the content item that uses them is written.
   */
  async save(source: BlobSource): Promise<void> {
    if (this.stores.current === 'postgres') {
      const { store } = await this.stores.blobs.savePostgres(source, this.copy);
      if (store !== 'postgres') await ensureInStore(this.stores.get(store), source);
      return;
    }
    const claim = await this.stores.blobs.claim(source.sha256, source.size, this.stores.current);
    if (claim.store === 'postgres') return; // written with its row, in one transaction
    try {
      await ensureInStore(this.stores.get(claim.store), source);
    } catch (e) {
      await this.stores.blobs.releaseClaim(source.sha256, claim).catch(() => undefined);
      throw e;
    }
  }

  /**
   * Starts copying `length` bytes into the postgres store while they are received (see
   * StreamedBlob); commit them with finishStreamed once their digest is known.
   */
  stream(length: number, onClose: () => void): Promise<StreamedBlob> {
    return StreamedBlob.start(this.stores.blobs, length, onClose);
  }

  /**
   * Commits bytes streamed into PostgreSQL under their SHA-256: dropped when the blob is stored
   * already, unless the store its row names has lost them (then the blob moves to PostgreSQL).
   */
  finishStreamed(streamed: StreamedBlob, sha256: string, size: number): Promise<void> {
    return streamed.finish(sha256, (store) => this.stores.get(store).has(sha256, size));
  }

  /**
   * Records the chunks a resumable upload wrote into PostgreSQL under its `key` as the blob
   * `sha256` (BlobsRepository.adoptUpload): dropped when the blob is stored already, unless the
   * store its row names has lost it.
   */
  adoptUpload(key: string, sha256: string, size: number): Promise<void> {
    return this.stores.blobs.adoptUpload(key, sha256, size, CHUNK_SIZE, (store) =>
      this.stores.get(store).has(sha256, size),
    );
  }

  /**
   * Moves a blob recorded in `from` to `to` (bytes read and checked already, in `source`): the
   * bytes are written to `to`, then the row switched to it in one statement; false when the row
   * was not in `from` any more (deleted or moved meanwhile). Into PostgreSQL, the chunks are
   * written while the row is locked, in the transaction that switches it; out of PostgreSQL,
   * the chunks go in the transaction that switches the row.
   */
  async move(source: BlobSource, from: StoreName, to: StoreName): Promise<boolean> {
    if (to === 'postgres') return this.stores.blobs.moveIntoPostgres(source, from, this.copy);
    await ensureInStore(this.stores.get(to), source);
    return this.stores.blobs.switchStore(source.sha256, from, to);
  }
}

/** Writes the bytes to the store unless it holds them whole already. */
async function ensureInStore(store: BlobStore, source: BlobSource): Promise<void> {
  if (!(await store.has(source.sha256, source.size))) await store.write(source);
}
