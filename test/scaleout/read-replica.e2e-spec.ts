import pg from 'pg';
import request from 'supertest';
import { validateDataset } from '../../src/import/dataset.js';
import { importDataset } from '../../src/import/importer.js';
import { createPrismaService } from '../../src/prisma/client.js';
import { b64, importFilesFixture } from '../files/files-fixtures.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { postgresBinaries, startReplicaPair, type ReplicaPair } from '../helpers/replica-cluster.js';
import { demoQml } from '../reports/report-fixtures.js';

const bin = postgresBinaries();
if (!bin) {
  console.warn(
    'PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) not found: the read-replica tests are skipped ' +
      '(set PG_BINDIR to their folder to run them)',
  );
}

const DOCS = JSON.stringify({ type: 'wt.doc.WTDocument' });
/** The prefix of the files fixture's numbers and container. */
const FP = 'RPF';

interface ListedFile {
  filename: string;
  role: string;
  mimetype: string;
}

/**
 * A real streaming replica (pg_basebackup -R) beside its primary, with replay paused to make it
 * lag: what the service answers then shows where it read. A read on the lagging replica shows
 * the data from before a change made on the primary; a read on the primary shows the change.
 */
(bin ? describe : describe.skip)('reads on a streaming replica (DATABASE_REPLICA_URL)', () => {
  let pair: ReplicaPair;
  let t: TestApp;
  let primary: pg.Pool;
  let replica: pg.Pool;

  const rename = (number: string, name: string) =>
    primary.query('UPDATE masters SET name = $2 WHERE number = $1', [number, name]);
  const report = (number: string) =>
    request(t.http)
      .post(`/reports?number=${number}`)
      .auth(...USERS.alice)
      .set('Content-Type', 'text/xml')
      .send(demoQml('Documents by number'));
  const nameInReport = async (number: string) => {
    const res = await report(number);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    return (res.body.items as unknown[][])[0][2];
  };
  const page = (id: number, p: number) =>
    request(t.http)
      .get(`/query/1.0/query/${id}`)
      .query({ page: p, limit: 2 })
      .auth(...USERS.alice);

  const list = (ref: string, role = 'all') =>
    request(t.http)
      .get(`/files/${ref}`)
      .query({ role })
      .auth(...USERS.alice);
  const listed = async (ref: string, role = 'all') => {
    const res = await list(ref, role);
    expect(res.status).toBe(200);
    const items = res.body.items as ListedFile[];
    expect(res.body.count).toBe(items.length);
    return items;
  };
  const names = async (ref: string, role = 'all') => (await listed(ref, role)).map((i) => i.filename);
  const upload = (path: string, text: string) =>
    request(t.http)
      .post(`/files/${path}`)
      .auth(...USERS.alice)
      .send({ data: b64(text) });
  const onReplica = async (fileName: string) =>
    (await replica.query('SELECT 1 FROM content_items WHERE file_name = $1', [fileName])).rowCount;

  beforeAll(async () => {
    pair = await startReplicaPair(bin!);
    await importFilesFixture(FP, pair.primaryUrl);
    await pair.catchUp();
    t = await createTestApp({ DATABASE_URL: pair.primaryUrl, DATABASE_REPLICA_URL: pair.replicaUrl });
    primary = new pg.Pool({ connectionString: pair.primaryUrl, max: 2 });
    replica = new pg.Pool({ connectionString: pair.replicaUrl, max: 2 });
    // The last test stops the replica under the pool's idle connections.
    replica.on('error', () => undefined);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await primary?.end();
    await replica?.end();
    await pair?.stop();
  });

  it('runs reports on the replica: they show the data as far as it has replayed', async () => {
    expect(await nameInReport('0000000001')).toBe('Drive unit specification');
    await pair.pauseReplay();
    await rename('0000000001', 'Renamed while the replica lags');
    // Served by the replica, which has not applied the change.
    expect(await nameInReport('0000000001')).toBe('Drive unit specification');
    await pair.catchUp();
    expect(await nameInReport('0000000001')).toBe('Renamed while the replica lags');
    await rename('0000000001', 'Drive unit specification');
    await pair.catchUp();
  });

  it('pages a session on the primary until the replica has its snapshot, then on the replica', async () => {
    const all = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: DOCS, limit: 100 })
      .auth(...USERS.alice);
    expect(all.status).toBe(200);
    const numbers = (all.body.items as { number: string }[]).map((i) => i.number);
    expect(numbers.length).toBeGreaterThan(4);

    await pair.pauseReplay();
    const opened = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: DOCS, limit: 2 })
      .auth(...USERS.alice);
    expect(opened.status).toBe(200);
    const id = opened.body.session_id as number;
    expect(id).toBeGreaterThan(0);
    // The session was written on the primary; the lagging replica does not have it.
    const onReplica = await replica.query('SELECT 1 FROM query_sessions WHERE id = $1', [id]);
    expect(onReplica.rowCount).toBe(0);
    const lagging = await page(id, 1);
    expect(lagging.status).toBe(200);
    expect(lagging.body).toMatchObject({ session_id: id, total: numbers.length, count: 2 });
    expect((lagging.body.items as { number: string }[]).map((i) => i.number)).toEqual(numbers.slice(2, 4));

    // Once the replica has the session, its pages are read there: with replay paused again, a
    // name changed on the primary still shows its old value.
    await pair.catchUp();
    await pair.pauseReplay();
    const [first] = lagging.body.items as { number: string; name: string }[];
    await rename(first.number, 'Renamed after the snapshot');
    const fromReplica = await page(id, 1);
    expect(fromReplica.status).toBe(200);
    expect(fromReplica.body.items[0]).toMatchObject({ number: first.number, name: first.name });
    await pair.catchUp();
    const caughtUp = await page(id, 1);
    expect(caughtUp.body.items[0]).toMatchObject({ number: first.number, name: 'Renamed after the snapshot' });
    await rename(first.number, first.name);

    // Closing is a write: on the primary, and the session is gone for every reader.
    const closed = await request(t.http)
      .delete(`/query/1.0/query/${id}`)
      .auth(...USERS.alice);
    expect(closed.status).toBe(200);
    expect((await page(id, 1)).status).toBe(410);
  });

  it('lists files on the replica when it shows the iteration as the primary does', async () => {
    const before = await listed(`${FP}-1`);
    expect(before.map((i) => i.filename)).toEqual(['main.txt', 'notes.md']);
    const [main] = before;

    // A change made behind the service's back, which leaves the iteration's row (its stamp)
    // as it was: the service never changes files so. The lagging replica still has the old type,
    // and a listing that shows it was read there.
    await pair.pauseReplay();
    const retype = (type: string) =>
      primary.query(
        `UPDATE content_items SET mime_type = $2 WHERE file_name = 'main.txt' AND iteration_id =
           (SELECT i.id FROM iterations i JOIN masters m ON m.id = i.master_id
            WHERE m.class = 'wt.doc.WTDocument' AND m.number = $1 AND i.latest)`,
        [`${FP}-1`, type],
      );
    await retype('application/x-changed');
    expect((await listed(`${FP}-1`))[0]).toMatchObject({ filename: 'main.txt', mimetype: main.mimetype });
    expect(await names(`${FP}-1`, 'SECONDARY')).toEqual(['notes.md']);
    await pair.catchUp();
    expect((await listed(`${FP}-1`))[0]).toMatchObject({ filename: 'main.txt', mimetype: 'application/x-changed' });
    await retype(main.mimetype);
    await pair.catchUp();
  });

  it('lists a file just uploaded while the replica lags: then the listing is read on the primary', async () => {
    await pair.pauseReplay();
    expect((await upload(`${FP}-1/fresh.txt`, 'uploaded while the replica lags')).status).toBe(201);
    expect(await onReplica('fresh.txt')).toBe(0);
    expect(await names(`${FP}-1`)).toEqual(['main.txt', 'fresh.txt', 'notes.md']);

    // A new iteration, which the replica does not have at all, by number and by its OID.
    const next = await upload(`${FP}-1/next.txt?iterate=true`, 'in a new iteration');
    expect(next.status).toBe(201);
    const holder = next.body.holder as string;
    expect(await names(`${FP}-1`)).toEqual(['main.txt', 'fresh.txt', 'next.txt', 'notes.md']);
    expect(await names(holder)).toEqual(['main.txt', 'fresh.txt', 'next.txt', 'notes.md']);

    // A deletion, and files loaded by an import, show at once as well.
    const deleted = await request(t.http)
      .delete(`/files/${FP}-1/notes.md`)
      .auth(...USERS.alice);
    expect(deleted.status).toBe(200);
    expect(await names(`${FP}-1`)).toEqual(['main.txt', 'fresh.txt', 'next.txt']);
    const { prisma, close } = createPrismaService(pair.primaryUrl, 1);
    try {
      await importDataset(
        prisma,
        validateDataset({
          format: 'pdm-dataset/1',
          objects: [
            {
              class: 'wt.doc.WTDocument',
              number: `${FP}-3`,
              name: `document ${FP}-3`,
              container: `${FP} Files`,
              files: [{ role: 'PRIMARY', filename: 'imported.txt', text: 'imported while the replica lags' }],
            },
          ],
        }),
      );
    } finally {
      await close();
    }
    expect(await onReplica('imported.txt')).toBe(0);
    expect(await names(`${FP}-3`)).toEqual(['imported.txt']);

    // Caught up, the replica has the same files, and listings are read there again.
    await pair.catchUp();
    expect(await names(`${FP}-1`)).toEqual(['main.txt', 'fresh.txt', 'next.txt']);
    expect(await names(`${FP}-1`, 'SECONDARY')).toEqual(['fresh.txt', 'next.txt']);
    expect(await names(`${FP}-3`)).toEqual(['imported.txt']);
  });

  it('reads on the primary while the replica is down', async () => {
    const opened = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: DOCS, limit: 2 })
      .auth(...USERS.alice);
    expect(opened.status).toBe(200);
    await pair.catchUp();
    await pair.stopReplica();
    await rename('0000000001', 'Renamed while the replica is down');
    expect(await nameInReport('0000000001')).toBe('Renamed while the replica is down');
    const next = await page(opened.body.session_id as number, 1);
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ count: 2, total: opened.body.total });
    expect((await upload(`${FP}-2/while-down.txt`, 'uploaded while the replica is down')).status).toBe(201);
    expect(await names(`${FP}-2`)).toEqual(['v2.txt', 'while-down.txt']);
    await rename('0000000001', 'Drive unit specification');
  });
});
