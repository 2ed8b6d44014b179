import type pg from 'pg';
import { inPgTransaction } from '../../prisma/pg-transaction.js';
import { deleteChunks, hasChunks, insertChunks, lastChunk, rekeyChunks } from './blob-chunks.repository.js';
import type { BlobSource, StoreName } from './blob-store.js';

/** One walk of a store at a time, whichever instance starts it (with the store as second key). */
export const WALK_LOCK = 0x70646d77; // 'pdmw'

/** Only one files:migrate runs at a time, whichever instance or shell started it. */
const MIGRATION_LOCK = 0x70646d62; // 'pdmb'

/** A blob recorded before its bytes go to an external store. */
export interface BlobClaim {
  /** The store that holds (or will hold) the bytes: the one recorded first wins. */
  store: StoreName;
  /** Whether this claim made the row; `token` then names its version, for releaseClaim. */
  inserted: boolean;
  token: string;
}

/**
 * A condition that is always true and makes the commit of the statement's transaction
 * asynchronous (synchronous_commit off, for this transaction only): for rows about blobs, which
 * no file row uses before a later, synchronous commit flushes the WAL past them. Part of the
 * statement itself, so that a claim stays one round trip.
 */
const ASYNC_COMMIT = "set_config('synchronous_commit', 'off', true) IS NOT NULL";

/**
 * The content_blobs key of a resumable upload's chunks while it is under way (never a SHA-256,
 * which is hex): its row is the upload's, removed with it (tus-uploads.service.ts), never by
 * the orphan sweep, nor moved by files:migrate.
 */
const UPLOAD_PREFIX = 'tus ';
const NOT_UPLOAD = `b.sha256 NOT LIKE '${UPLOAD_PREFIX}%'`;

/** The content_blobs key under which the chunks of resumable upload `id` are kept until it completes. */
export function uploadKey(id: string): string {
  return `${UPLOAD_PREFIX}${id}`.padEnd(64);
}

const ORPHAN = `b.stored_at < now() - make_interval(secs => $1::double precision / 1000)
       AND ${NOT_UPLOAD}
       AND NOT EXISTS (SELECT 1 FROM content_items ci WHERE ci.sha256 = b.sha256)`;

/** A blob as content_blobs records it. */
export interface BlobRecord {
  sha256: string;
  size: number;
  store: StoreName;
}

/**
 * The content_blobs rows as the stores need them: which store holds a blob, claims of uploads,
 * the orphan sweep, the walk of the stores and moves between stores; with the blob_chunks
 * statements of blob-chunks.repository.ts where a row and its chunks change in one transaction.
 * Statements run on the pg pool under Prisma (or the pool of files:migrate or of the importer).
 */
export class BlobsRepository {
  constructor(readonly pool: pg.Pool) {}

  /**
   * Records a blob, or refreshes the stored_at of the one recorded, before its bytes are written
   * to an external store, in a transaction of its own. From then on the sweep leaves the blob
   * alone for its grace period, and a sweep that holds the row (to delete the bytes) makes this
   * wait until it has finished, so the caller then writes the bytes again. The row may exist
   * before its bytes do; no content item uses it until its upload has written them.
   */
  async claim(sha256: string, size: number, store: StoreName): Promise<BlobClaim> {
    const res = await this.pool.query<BlobClaim>({
      name: 'files-blob-claim',
      text: `INSERT INTO content_blobs (sha256, size, store) SELECT $1, $2, $3 WHERE ${ASYNC_COMMIT}
     ON CONFLICT (sha256) DO UPDATE SET stored_at = now()
     RETURNING store, (xmax = 0) AS inserted, xmin::text AS token`,
      values: [sha256, size, store],
    });
    return res.rows[0];
  }

  /** Removes a blob row this upload made when its bytes could not be written, unless reused meanwhile. */
  async releaseClaim(sha256: string, claim: BlobClaim): Promise<void> {
    if (!claim.inserted) return;
    await this.pool.query(
      `DELETE FROM content_blobs b WHERE b.sha256 = $1 AND b.xmin::text = $2
       AND NOT EXISTS (SELECT 1 FROM content_items ci WHERE ci.sha256 = b.sha256)`,
      [sha256, claim.token],
    );
  }

  /** The store recorded for a blob, or null when there is no such blob. */
  async storeOf(sha256: string): Promise<StoreName | null> {
    const res = await this.pool.query<{ store: StoreName }>({
      name: 'files-blob-store',
      text: 'SELECT store FROM content_blobs WHERE sha256 = $1',
      values: [sha256],
    });
    return res.rows[0]?.store ?? null;
  }

  /**
   * Records a blob in the postgres store in the caller's transaction, or refreshes the stored_at
   * of the one recorded (in whichever store); `inserted` when this made the row, whose chunks the
   * caller then writes. The transaction commits asynchronously: the commit does not wait for its
   * WAL to reach the disk (ASYNC_COMMIT). The file row that uses the blob is committed after it,
   * synchronously, which flushes the WAL up to that later position, this transaction included.
   * Until then nothing uses the blob, and a crash in between loses at most a blob no file row
   * points at. One flush per upload instead of two.
   */
  async upsertPostgres(
    client: pg.ClientBase,
    sha256: string,
    size: number,
  ): Promise<{ inserted: boolean; store: StoreName }> {
    const res = await client.query<{ inserted: boolean; store: StoreName }>({
      name: 'files-blob-upsert',
      text: `INSERT INTO content_blobs (sha256, size, store) SELECT $1, $2, 'postgres' WHERE ${ASYNC_COMMIT}
     ON CONFLICT (sha256) DO UPDATE SET stored_at = now()
     RETURNING (xmax = 0) AS inserted, store`,
      values: [sha256, size],
    });
    return res.rows[0];
  }

  /**
   * Stores a blob in PostgreSQL in a transaction of its own (committed on return): its row
   * (upsertPostgres) and, when this made the row, its chunks. A blob that exists is not written
   * again, but its stored_at is refreshed (see sweepOrphans); two uploads of the same new bytes
   * serialise on the content_blobs key, and the second skips. Returns the store that holds the
   * blob: another one when the bytes were stored there before.
   */
  savePostgres(source: BlobSource, copy: boolean): Promise<{ store: StoreName }> {
    return inPgTransaction(this.pool, async (client) => {
      const { inserted, store } = await this.upsertPostgres(client, source.sha256, source.size);
      if (inserted) await insertChunks(client, source, copy);
      return { store };
    });
  }

  /** Writes the chunks of a blob whose row exists, unless they are there (the row locked meanwhile). */
  writeMissingChunks(source: BlobSource): Promise<void> {
    return inPgTransaction(this.pool, async (client) => {
      await client.query('SELECT 1 FROM content_blobs WHERE sha256 = $1 FOR UPDATE', [source.sha256]);
      if (!(await hasChunks(client, source.sha256))) await insertChunks(client, source, false);
    });
  }

  /**
   * Moves a blob recorded in `from` into PostgreSQL: its chunks are written while the row is
   * locked, in the transaction that switches it. False when the row was not in `from` any more.
   */
  moveIntoPostgres(source: BlobSource, from: StoreName, copy: boolean): Promise<boolean> {
    return inPgTransaction(this.pool, async (client) => {
      const locked = await client.query('SELECT 1 FROM content_blobs WHERE sha256 = $1 AND store = $2 FOR UPDATE', [
        source.sha256,
        from,
      ]);
      if (!locked.rowCount) return false;
      await deleteChunks(client, source.sha256);
      await insertChunks(client, source, copy);
      await this.markInPostgres(client, source.sha256);
      return true;
    });
  }

  /**
   * Switches a blob's row from `from` to the external store `to` (which holds its bytes by now);
   * out of PostgreSQL, its chunks go in the same transaction. False when the row was not in
   * `from` any more.
   */
  switchStore(sha256: string, from: StoreName, to: StoreName): Promise<boolean> {
    return inPgTransaction(this.pool, async (client) => {
      const res = await client.query('UPDATE content_blobs SET store = $3 WHERE sha256 = $1 AND store = $2', [
        sha256,
        from,
        to,
      ]);
      if (res.rowCount && from === 'postgres') await deleteChunks(client, sha256);
      return Boolean(res.rowCount);
    });
  }

  /** Records the blob in the postgres store (in the caller's transaction, which writes its chunks). */
  async markInPostgres(client: pg.ClientBase, sha256: string): Promise<void> {
    await client.query(`UPDATE content_blobs SET store = 'postgres' WHERE sha256 = $1`, [sha256]);
  }

  /**
   * Deletes the blobs in PostgreSQL that no content item uses (left by updates, deletions, or a
   * write that failed after storing its bytes) once they are older than the grace period; their
   * chunks go with them. Returns how many went.
   */
  async sweepOrphans(graceMs: number): Promise<number> {
    const res = await this.pool.query(`DELETE FROM content_blobs b WHERE b.store = 'postgres' AND ${ORPHAN}`, [
      graceMs,
    ]);
    return res.rowCount ?? 0;
  }

  /** Blobs of an external store that no content item uses, older than the grace period. */
  async orphansIn(store: StoreName, graceMs: number, limit: number): Promise<string[]> {
    const res = await this.pool.query<{ sha256: string }>(
      `SELECT b.sha256 FROM content_blobs b WHERE b.store = $2 AND ${ORPHAN} ORDER BY b.stored_at LIMIT $3`,
      [graceMs, store, limit],
    );
    return res.rows.map((r) => r.sha256);
  }

  /**
   * Deletes one orphan of an external store: the row is locked and the condition checked again,
   * `removeBytes` deletes the bytes while the lock is held, then the row goes. An upload claiming
   * the same bytes meanwhile waits for the lock and then writes them anew. False when the blob
   * was no orphan any more (or another sweep has it).
   */
  deleteOrphan(sha256: string, store: StoreName, graceMs: number, removeBytes: () => Promise<void>): Promise<boolean> {
    return inPgTransaction(this.pool, async (client) => {
      const locked = await client.query(
        `SELECT 1 FROM content_blobs b WHERE b.sha256 = $2 AND b.store = $3 AND ${ORPHAN} FOR UPDATE SKIP LOCKED`,
        [graceMs, sha256, store],
      );
      if (locked.rowCount) {
        await removeBytes();
        await this.deleteRow(client, sha256);
      }
      return Boolean(locked.rowCount);
    });
  }

  /** Deletes a blob's row (and so its chunks), in the caller's transaction. */
  async deleteRow(client: pg.ClientBase, sha256: string): Promise<void> {
    await client.query('DELETE FROM content_blobs WHERE sha256 = $1', [sha256]);
  }

  /** Which of these blobs content_blobs records (in whichever store). */
  async recorded(hashes: string[]): Promise<Set<string>> {
    const res = await this.pool.query<{ sha256: string }>(
      // bpchar[], the key's type: with text[] the primary key would go unused.
      'SELECT sha256 FROM content_blobs WHERE sha256 = ANY($1::bpchar[])',
      [hashes],
    );
    return new Set(res.rows.map((r) => r.sha256));
  }

  /**
   * Deletes bytes of an external store that no content_blobs row names (an upload's whose claim a
   * database crash lost), unless a row names them by now. The blob is recorded, in a transaction
   * that `removeBytes` runs in and that is then rolled back: a row that exists (committed, or being
   * inserted: the insert waits for it) keeps the bytes; otherwise an upload claiming the same bytes
   * meanwhile waits for the inserted row's lock, so it finds them gone once it goes on (its claim
   * then makes the row, and it writes them anew) and never a has() that the removal then makes
   * false. True when the bytes were removed.
   */
  deleteUnrecorded(sha256: string, size: number, store: StoreName, removeBytes: () => Promise<void>): Promise<boolean> {
    return inPgTransaction(
      this.pool,
      async (client) => {
        const held = await client.query(
          `INSERT INTO content_blobs (sha256, size, store) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING`,
          [sha256, size, store],
        );
        if (held.rowCount) await removeBytes();
        return Boolean(held.rowCount);
      },
      { commit: false },
    );
  }

  /**
   * Opens the transaction of an upload streamed into the postgres store (StreamedBlob) on
   * `client`: the statement timeout, meant for queries, is lifted for it (the upload lasts as
   * long as the client takes to send the body), and the temporary `key` gets a content_blobs row
   * only this transaction sees, which its chunks reference until they take the blob's key.
   */
  async openStreamedUpload(client: pg.ClientBase, key: string, length: number): Promise<void> {
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query(`INSERT INTO content_blobs (sha256, size, store) VALUES ($1, $2, 'postgres')`, [key, length]);
  }

  /**
   * Gives chunks written under a temporary `key` (an upload streamed or sent in parts) the
   * blob's SHA-256, in the caller's transaction on `client`, and drops the key's row: when the
   * blob is recorded already, the chunks go with that row; but when it is recorded in another
   * store that does not hold it (`holds`), the blob moves to this one, with them. Commits
   * asynchronously as upsertPostgres says.
   */
  async adoptChunks(
    client: pg.ClientBase,
    key: string,
    sha256: string,
    size: number,
    holds: (store: StoreName) => Promise<boolean>,
  ): Promise<void> {
    const { inserted, store } = await this.upsertPostgres(client, sha256, size);
    const keep = inserted || (store !== 'postgres' && !(await holds(store)));
    if (keep) {
      if (!inserted) await this.markInPostgres(client, sha256);
      await rekeyChunks(client, key, sha256);
    }
    await this.deleteRow(client, key);
  }

  /**
   * Opens the transaction of a part of a resumable upload on `client`: the statement timeout is
   * lifted (the part lasts as long as the client takes to send it), the commit is asynchronous
   * (as upsertPostgres explains: a part lost in a crash is one the client sends again after
   * asking HEAD where to resume, and the completion's file row, committed synchronously, flushes
   * the WAL past every part), and the upload's key gets its content_blobs row (of the declared
   * length) unless it has it (`first`: no chunk of it is stored yet), so its chunks can reference it.
   */
  async openUploadPart(client: pg.ClientBase, key: string, length: number, first: boolean): Promise<void> {
    await client.query(
      "SELECT set_config('statement_timeout', '0', true), set_config('synchronous_commit', 'off', true)",
    );
    if (!first) return;
    await client.query(
      `INSERT INTO content_blobs (sha256, size, store) VALUES ($1, $2, 'postgres') ON CONFLICT (sha256) DO NOTHING`,
      [key, length],
    );
  }

  /** How many bytes the chunks of an upload hold (they are CHUNK_SIZE long but the last). */
  async uploadOffset(key: string, chunkSize: number): Promise<number> {
    const last = await lastChunk(this.pool, key);
    return last ? last.seq * chunkSize + last.length : 0;
  }

  /**
   * Records the chunks of a completed upload as the blob `sha256` (adoptChunks), in a
   * transaction of its own, after checking they hold `size` bytes.
   */
  adoptUpload(
    key: string,
    sha256: string,
    size: number,
    chunkSize: number,
    holds: (store: StoreName) => Promise<boolean>,
  ): Promise<void> {
    return inPgTransaction(this.pool, async (client) => {
      await client.query('SELECT 1 FROM content_blobs WHERE sha256 = $1 FOR UPDATE', [key]);
      const last = await lastChunk(client, key);
      const held = last ? last.seq * chunkSize + last.length : 0;
      if (held !== size) throw new Error(`the upload ${key.trim()} holds ${held} bytes, not ${size}`);
      await this.adoptChunks(client, key, sha256, size, holds);
    });
  }

  /** Removes an upload's chunks (with their row); nothing when they are gone. */
  async deleteUpload(key: string): Promise<void> {
    await this.pool.query('DELETE FROM content_blobs WHERE sha256 = $1', [key]);
  }

  /** The ids of the uploads with chunks recorded before `maxAgeMs` ago (for the sweep of leftovers). */
  async uploadIds(maxAgeMs: number): Promise<string[]> {
    const res = await this.pool.query<{ key: string }>(
      `SELECT rtrim(sha256) AS key FROM content_blobs
        WHERE sha256 LIKE '${UPLOAD_PREFIX}%' AND created_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [maxAgeMs],
    );
    return res.rows.map((r) => r.key.slice(UPLOAD_PREFIX.length));
  }

  /** Runs `work` in a transaction of its own on the pool (see inPgTransaction). */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inPgTransaction(this.pool, work);
  }

  /**
   * Takes the session advisory lock of the walk of `store` on `lock` (a connection of its own);
   * false when another walk holds it.
   */
  async tryWalkLock(lock: pg.ClientBase, store: StoreName): Promise<boolean> {
    const got = await lock.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [
      WALK_LOCK,
      store,
    ]);
    return got.rows[0].ok;
  }

  /** Fails when the connection that holds a walk's lock is lost. */
  async checkLock(lock: pg.ClientBase): Promise<void> {
    await lock.query('SELECT 1');
  }

  async walkUnlock(lock: pg.ClientBase, store: StoreName): Promise<void> {
    await lock.query('SELECT pg_advisory_unlock($1, hashtext($2))', [WALK_LOCK, store]);
  }

  /**
   * Runs `work` holding the lock of files:migrate, on a connection of its own; null, without
   * running it, when another run holds the lock.
   */
  async withMigrationLock<T>(work: () => Promise<T>): Promise<T | null> {
    const lock = await this.pool.connect();
    try {
      const got = await lock.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [MIGRATION_LOCK]);
      if (!got.rows[0].ok) return null;
      const result = await work();
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      return result;
    } finally {
      lock.release();
    }
  }

  /** The next `limit` blobs after `after` (by SHA-256) recorded elsewhere than `to` (in `from` only, if given). */
  async blobsToMove(to: StoreName, from: StoreName | null, after: string, limit: number): Promise<BlobRecord[]> {
    const rows = await this.pool.query<{ sha256: string; size: string; store: StoreName }>(
      `SELECT sha256, size::text, store FROM content_blobs b
         WHERE store <> $1 AND ($2::text IS NULL OR store = $2) AND sha256 > $3 AND ${NOT_UPLOAD}
         ORDER BY sha256 LIMIT $4`,
      [to, from, after, limit],
    );
    return rows.rows.map((r) => ({ sha256: r.sha256, size: Number(r.size), store: r.store }));
  }

  /** Refreshes the stored_at of a blob in `store`, so the sweep leaves it alone; false when it is not there. */
  async touch(sha256: string, store: StoreName): Promise<boolean> {
    const res = await this.pool.query('UPDATE content_blobs SET stored_at = now() WHERE sha256 = $1 AND store = $2', [
      sha256,
      store,
    ]);
    return Boolean(res.rowCount);
  }
}
