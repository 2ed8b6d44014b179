import { createHash } from 'node:crypto';
import { BlobSweeper } from '../../src/files/stores/blob-sweeper.js';
import { FileContent } from '../../src/files/file-content.js';
import { FilesRepository } from '../../src/files/files.repository.js';
import { IterationsModule } from '../../src/objects/versioned/iterations.module.js';
import { useServices } from './medium-database.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('BlobSweeper on the postgres store', () => {
  const s = useServices(
    { imports: [IterationsModule], providers: [BlobSweeper, FileContent, FilesRepository] },
    // No periodic sweep and no caches: the test sweeps when it means to.
    { FILES_SWEEP_INTERVAL_MS: '0', FILES_CACHE_SIZE: '0', FILES_DISK_CACHE_SIZE: '0' },
  );

  /** A blob row with two chunks, as an upload leaves it, stored `hours` ago. */
  const addBlob = async (text: string, hours: number) => {
    const hash = sha(text);
    await s.pool.query(
      `INSERT INTO content_blobs (sha256, size, stored_at) VALUES ($1, $2, now() - make_interval(hours => $3))`,
      [hash, Buffer.byteLength(text), hours],
    );
    await s.pool.query('INSERT INTO blob_chunks (sha256, seq, data) VALUES ($1, 0, $2), ($1, 1, $3)', [
      hash,
      Buffer.from(text.slice(0, 3)),
      Buffer.from(text.slice(3)),
    ]);
    return hash;
  };
  const rows = async (hash: string) => {
    const { rows } = await s.pool.query<{ blobs: number; chunks: number }>(
      `SELECT (SELECT count(*)::int FROM content_blobs WHERE sha256 = $1) AS blobs,
              (SELECT count(*)::int FROM blob_chunks WHERE sha256 = $1) AS chunks`,
      [hash],
    );
    return rows[0];
  };

  it('deletes blobs no file uses once older than the grace period, with their chunks, and keeps the rest', async () => {
    const old = await addBlob('bytes no file uses any more', 2);
    const young = await addBlob('bytes whose file is being recorded', 0);
    // Bytes of the demo data a file uses, however old.
    const { rows: used } = await s.pool.query<{ sha256: string }>(
      'SELECT sha256 FROM content_items ORDER BY id LIMIT 1',
    );
    expect(used).toHaveLength(1);
    await s.pool.query(`UPDATE content_blobs SET stored_at = now() - interval '30 days' WHERE sha256 = $1`, [
      used[0].sha256,
    ]);
    const before = await rows(used[0].sha256);
    expect(before.blobs).toBe(1);

    expect(await s.get(BlobSweeper).sweepUnused()).toBe(1);
    expect(await rows(old)).toEqual({ blobs: 0, chunks: 0 });
    expect(await rows(young)).toEqual({ blobs: 1, chunks: 2 });
    expect(await rows(used[0].sha256)).toEqual(before);
    expect(await s.get(BlobSweeper).sweepUnused()).toBe(0);
  });

  it('sweeps the bytes of a file once its last user is gone', async () => {
    const text = 'bytes of a file about to be deleted';
    const hash = await addBlob(text, 2);
    const { rows: item } = await s.pool.query<{ iteration_id: number }>(
      'SELECT iteration_id FROM content_items ORDER BY id LIMIT 1',
    );
    const { rows: added } = await s.pool.query<{ id: number }>(
      `INSERT INTO content_items (iteration_id, role, file_name, sha256, size, mime_type)
       VALUES ($1, 'SECONDARY', 'about-to-go.txt', $2, $3, 'text/plain') RETURNING id`,
      [item[0].iteration_id, hash, Buffer.byteLength(text)],
    );
    expect(await s.get(BlobSweeper).sweepUnused()).toBe(0);
    expect(await rows(hash)).toEqual({ blobs: 1, chunks: 2 });

    await s.pool.query('DELETE FROM content_items WHERE id = $1', [added[0].id]);
    expect(await s.get(BlobSweeper).sweepUnused()).toBe(1);
    expect(await rows(hash)).toEqual({ blobs: 0, chunks: 0 });
  });
});
