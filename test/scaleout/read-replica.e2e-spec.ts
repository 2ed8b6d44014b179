import pg from 'pg';
import request from 'supertest';
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

  beforeAll(async () => {
    pair = await startReplicaPair(bin!);
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
    await rename('0000000001', 'Drive unit specification');
  });
});
