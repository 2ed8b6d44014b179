import { createHash } from 'node:crypto';
import type pg from 'pg';
import request from 'supertest';
import { BlobSweeper } from '../../src/files/stores/blob-sweeper.js';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { b64, importFilesFixture, removeFilesFixture } from './files-fixtures.js';

const PREFIX = 'SWP';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('sweeping file bytes no file uses', () => {
  let db: pg.Pool;
  const upload = (name: string, text: string) =>
    request(t.http)
      .post(`/files/${PREFIX}-1/${name}`)
      .auth(...USERS.alice)
      .send({ data: b64(text) });
  const blobExists = async (text: string) =>
    (await db.query('SELECT 1 FROM content_blobs WHERE sha256 = $1', [sha(text)])).rowCount === 1;
  const age = (text: string) =>
    db.query(`UPDATE content_blobs SET stored_at = now() - interval '2 hours' WHERE sha256 = $1`, [sha(text)]);

  const t = useTestApp({ FILES_SWEEP_INTERVAL_MS: '0' });
  beforeAll(async () => {
    db = testPool();
    await importFilesFixture(PREFIX);
  });
  afterAll(async () => {
    await removeFilesFixture(db, PREFIX);
    await db.end();
  });

  it('deletes old unused bytes, keeps bytes in use and bytes stored recently', async () => {
    const v1 = `sweep v1 ${Date.now()}`;
    const v2 = `sweep v2 ${Date.now()}`;
    const fresh = `sweep fresh ${Date.now()}`;
    expect((await upload('swept.txt', v1)).status).toBe(201);
    expect((await upload('swept.txt', v2)).status).toBe(200);
    expect((await upload('other.txt', fresh)).status).toBe(201);
    expect(
      (
        await request(t.http)
          .delete(`/files/${PREFIX}-1/other.txt`)
          .auth(...USERS.alice)
      ).status,
    ).toBe(200);
    await age(v1);
    await age(v2);

    const deleted = await t.app.get(BlobSweeper).sweep();
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await blobExists(v1)).toBe(false);
    const chunks = await db.query('SELECT count(*)::int AS n FROM blob_chunks WHERE sha256 = $1', [sha(v1)]);
    expect(chunks.rows[0].n).toBe(0);
    expect(await blobExists(v2)).toBe(true);
    expect(await blobExists(fresh)).toBe(true);

    const download = await request(t.http)
      .get(`/files/${PREFIX}-1/swept.txt`)
      .auth(...USERS.bob);
    expect(download.status).toBe(200);
    expect(download.text).toBe(v2);
  });

  it('an upload of bytes that are stored but unused refreshes them, so the sweep spares them', async () => {
    const text = `sweep revived ${Date.now()}`;
    expect((await upload('revived.txt', text)).status).toBe(201);
    expect(
      (
        await request(t.http)
          .delete(`/files/${PREFIX}-1/revived.txt`)
          .auth(...USERS.alice)
      ).status,
    ).toBe(200);
    await age(text);
    expect((await upload('revived-again.txt', text)).status).toBe(201);
    const stored = await db.query<{ recent: boolean }>(
      `SELECT stored_at > now() - interval '1 minute' AS recent FROM content_blobs WHERE sha256 = $1`,
      [sha(text)],
    );
    expect(stored.rows).toEqual([{ recent: true }]);
    await t.app.get(BlobSweeper).sweep();
    expect(await blobExists(text)).toBe(true);
    const download = await request(t.http)
      .get(`/files/${PREFIX}-1/revived-again.txt`)
      .auth(...USERS.bob);
    expect(download.status).toBe(200);
    expect(download.text).toBe(text);
  });
});
