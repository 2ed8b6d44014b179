import type pg from 'pg';
import type { StoreName } from './blob-store.js';
import { inTransaction, withClient } from './copy-reader.js';

/**
 * The content_blobs rows as the stores need them: which store holds a blob, claims of uploads,
 * the orphan sweep and moves between stores. Statements run on the pg pool under Prisma.
 */

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
export const ASYNC_COMMIT = "set_config('synchronous_commit', 'off', true) IS NOT NULL";

/**
 * Records a blob, or refreshes the stored_at of the one recorded, before its bytes are written
 * to an external store, in a transaction of its own. From then on the sweep leaves the blob
 * alone for its grace period, and a sweep that holds the row (to delete the bytes) makes this
 * wait until it has finished, so the caller then writes the bytes again. The row may exist
 * before its bytes do; no content item uses it until its upload has written them.
 */
export async function claimBlob(pool: pg.Pool, sha256: string, size: number, store: StoreName): Promise<BlobClaim> {
  const res = await pool.query<BlobClaim>({
    name: 'files-blob-claim',
    text: `INSERT INTO content_blobs (sha256, size, store) SELECT $1, $2, $3 WHERE ${ASYNC_COMMIT}
     ON CONFLICT (sha256) DO UPDATE SET stored_at = now()
     RETURNING store, (xmax = 0) AS inserted, xmin::text AS token`,
    values: [sha256, size, store],
  });
  return res.rows[0];
}

/** Removes a blob row this upload made when its bytes could not be written, unless reused meanwhile. */
export async function releaseClaim(pool: pg.Pool, sha256: string, claim: BlobClaim): Promise<void> {
  if (!claim.inserted) return;
  await pool.query(
    `DELETE FROM content_blobs b WHERE b.sha256 = $1 AND b.xmin::text = $2
       AND NOT EXISTS (SELECT 1 FROM content_items ci WHERE ci.sha256 = b.sha256)`,
    [sha256, claim.token],
  );
}

/** The store recorded for a blob, or null when there is no such blob. */
export async function storeOf(pool: pg.Pool, sha256: string): Promise<StoreName | null> {
  const res = await pool.query<{ store: StoreName }>({
    name: 'files-blob-store',
    text: 'SELECT store FROM content_blobs WHERE sha256 = $1',
    values: [sha256],
  });
  return res.rows[0]?.store ?? null;
}

const ORPHAN = `b.stored_at < now() - make_interval(secs => $1::double precision / 1000)
       AND NOT EXISTS (SELECT 1 FROM content_items ci WHERE ci.sha256 = b.sha256)`;

/**
 * Deletes the blobs in PostgreSQL that no content item uses (left by updates, deletions, or a
 * write that failed after storing its bytes) once they are older than the grace period; their
 * chunks go with them. Returns how many went.
 */
export async function sweepOrphanBlobs(pool: pg.Pool, graceMs: number): Promise<number> {
  const res = await pool.query(`DELETE FROM content_blobs b WHERE b.store = 'postgres' AND ${ORPHAN}`, [graceMs]);
  return res.rowCount ?? 0;
}

/** Blobs of an external store that no content item uses, older than the grace period. */
export async function orphansIn(pool: pg.Pool, store: StoreName, graceMs: number, limit: number): Promise<string[]> {
  const res = await pool.query<{ sha256: string }>(
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
export async function deleteOrphan(
  pool: pg.Pool,
  sha256: string,
  store: StoreName,
  graceMs: number,
  removeBytes: () => Promise<void>,
): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const locked = await client.query(
      `SELECT 1 FROM content_blobs b WHERE b.sha256 = $2 AND b.store = $3 AND ${ORPHAN} FOR UPDATE SKIP LOCKED`,
      [graceMs, sha256, store],
    );
    if (locked.rowCount) {
      await removeBytes();
      await client.query('DELETE FROM content_blobs WHERE sha256 = $1', [sha256]);
    }
    return Boolean(locked.rowCount);
  });
}

/** Which of these blobs content_blobs records (in whichever store). */
export async function recordedBlobs(pool: pg.Pool, hashes: string[]): Promise<Set<string>> {
  const res = await pool.query<{ sha256: string }>(
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
export async function deleteUnrecorded(
  pool: pg.Pool,
  sha256: string,
  size: number,
  store: StoreName,
  removeBytes: () => Promise<void>,
): Promise<boolean> {
  return withClient(pool, async (client) => {
    await client.query('BEGIN');
    try {
      const held = await client.query(
        `INSERT INTO content_blobs (sha256, size, store) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING`,
        [sha256, size, store],
      );
      if (held.rowCount) await removeBytes();
      return Boolean(held.rowCount);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
    }
  });
}
