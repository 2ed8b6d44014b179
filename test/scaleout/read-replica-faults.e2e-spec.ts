import pg from 'pg';
import request from 'supertest';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { postgresBinaries, startReplicaPair, type ReplicaPair } from '../helpers/replica-cluster.js';
import { DatabasePools } from '../../src/prisma/database-pools.js';
import { ReadReplica } from '../../src/prisma/read-replica.js';
import { demoQml, until } from '../reports/report-fixtures.js';

const bin = postgresBinaries();
if (!bin) {
  console.warn(
    'PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) not found: the read-replica fault tests are ' +
      'skipped (set PG_BINDIR to their folder to run them)',
  );
}

const DOCS = JSON.stringify({ type: 'wt.doc.WTDocument' });
/** How long the service may wait for a hung replica (DB_REPLICA_TIMEOUT_MS in this test). */
const REPLICA_TIMEOUT_MS = 1000;
/** Far longer than falling back needs, far shorter than the HTTP idle timeout that ends a hung request. */
const ANSWER_WITHIN_MS = 20_000;

type User = 'alice' | 'bob';
const credentials = (user: User): [string, string] => [USERS[user][0], USERS[user][1]];

interface Item {
  number: string;
  name: string;
  container: { name: string };
}

/**
 * What a replica that lags or hangs must not change: who may read what (decided on the primary),
 * and that every read answers (from the primary when the replica cannot).
 */
(bin ? describe : describe.skip)('a read replica that lags or hangs', () => {
  let pair: ReplicaPair;
  let t: TestApp;
  let primary: pg.Pool;

  /** A request that must answer within ANSWER_WITHIN_MS, or fail saying what it waited for. */
  const answered = async (what: string, req: request.Test) => {
    try {
      return await req.timeout(ANSWER_WITHIN_MS);
    } catch (e) {
      throw new Error(`${what} gave no answer within ${ANSWER_WITHIN_MS / 1000} s: ${(e as Error).message}`);
    }
  };
  const report = (user: User, number: string) =>
    answered(
      `the report of ${user}`,
      request(t.http)
        .post(`/reports?number=${number}`)
        .auth(...credentials(user))
        .set('Content-Type', 'text/xml')
        .send(demoQml('Documents by number')),
    );
  /** The names a report of one document number shows the user (none: the user may not read it). */
  const reported = async (user: User, number: string) => {
    const res = await report(user, number);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe((res.body.items as unknown[]).length);
    return (res.body.items as unknown[][]).map((row) => row[2]);
  };
  const open = async (user: User) => {
    const res = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: DOCS, limit: 2 })
      .auth(...credentials(user));
    expect(res.status).toBe(200);
    expect(res.body.session_id).toBeGreaterThan(0);
    return res.body.session_id as number;
  };
  /** Every item of the user's session (one page of up to 100). */
  const page = async (user: User, id: number) => {
    const res = await answered(
      `a page of the session of ${user}`,
      request(t.http)
        .get(`/query/1.0/query/${id}`)
        .query({ page: 0, limit: 100 })
        .auth(...credentials(user)),
    );
    expect(res.status).toBe(200);
    expect(res.body.count).toBe((res.body.items as unknown[]).length);
    return res.body.items as Item[];
  };
  const rename = (number: string, name: string) =>
    primary.query('UPDATE masters SET name = $2 WHERE number = $1', [number, name]);
  const containersOf = (items: Item[]) => [...new Set(items.map((i) => i.container.name))].sort();
  /** The ids of a user and a container, to change the membership of one in the other. */
  const membership = async (user: User, container: string): Promise<[number, number]> => {
    const { rows } = await primary.query<{ u: number; c: number }>(
      'SELECT u.id AS u, c.id AS c FROM users u, containers c WHERE u.name = $1 AND c.name = $2',
      [user, container],
    );
    return [rows[0].u, rows[0].c];
  };
  const MEMBER = 'SELECT 1 FROM memberships WHERE user_id = $1 AND container_id = $2';

  beforeAll(async () => {
    pair = await startReplicaPair(bin!);
    t = await createTestApp({
      DATABASE_URL: pair.primaryUrl,
      DATABASE_REPLICA_URL: pair.replicaUrl,
      DB_REPLICA_TIMEOUT_MS: String(REPLICA_TIMEOUT_MS),
    });
    primary = new pg.Pool({ connectionString: pair.primaryUrl, max: 2 });
  }, 180_000);

  afterEach(() => pair?.thawReplica());

  afterAll(async () => {
    pair?.thawReplica();
    await t?.close();
    await primary?.end();
    await pair?.stop();
  });

  it('decides on the primary who reads a container: a revoked member reads nothing of it while the replica lags', async () => {
    const alice = await membership('alice', 'Drive Unit');
    expect(await reported('alice', '0000000001')).toEqual(['Drive unit specification']);
    const alices = await open('alice');
    const bobs = await open('bob');
    await pair.catchUp();
    // Read on the replica (it has both sessions): both see the container.
    expect(containersOf(await page('alice', alices))).toEqual(['Drive Unit', 'Standard Parts']);

    await pair.pauseReplay();
    try {
      await primary.query('DELETE FROM memberships WHERE user_id = $1 AND container_id = $2', alice);
      await rename('0000000001', 'Renamed on the primary');
      // The lagging replica still shows alice as a member of Drive Unit.
      const replica = new pg.Client({ connectionString: pair.replicaUrl });
      await replica.connect();
      const stale = await replica.query(MEMBER, alice);
      await replica.end();
      expect(stale.rowCount).toBe(1);

      expect(await reported('alice', '0000000001')).toEqual([]);
      expect(containersOf(await page('alice', alices))).toEqual(['Standard Parts']);
      const listing = await request(t.http)
        .get('/files/0000000001')
        .auth(...USERS.alice);
      expect(listing.status).toBe(404);
      expect(listing.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
      // A member still reads it all, on the replica (which has not replayed the new name).
      expect(await reported('bob', '0000000001')).toEqual(['Drive unit specification']);
      expect(containersOf(await page('bob', bobs))).toEqual(['Drive Unit', 'Standard Parts']);
    } finally {
      await primary.query(
        `INSERT INTO memberships (user_id, container_id, role) VALUES ($1, $2, 'author') ON CONFLICT DO NOTHING`,
        alice,
      );
      await rename('0000000001', 'Drive unit specification');
      await pair.catchUp();
    }
    expect(await reported('alice', '0000000001')).toEqual(['Drive unit specification']);
  });

  it('lets a report run on past DB_REPLICA_TIMEOUT_MS while the replica answers', async () => {
    await pair.catchUp();
    const onReplica = new pg.Client({ connectionString: pair.replicaUrl });
    await onReplica.connect();
    const locker = await primary.connect();
    try {
      // A lock on the primary is replayed on the replica: the report waits there, on a server that answers.
      await locker.query('BEGIN; LOCK TABLE iterations IN ACCESS EXCLUSIVE MODE');
      // A commit flushes the WAL before it, the lock's record with it, so it is sent at once.
      await primary.query('SELECT pg_current_xact_id()');
      const held = `SELECT 1 FROM pg_locks WHERE relation = 'iterations'::regclass AND mode = 'AccessExclusiveLock'`;
      await until('the replica holds the lock', async () => (await onReplica.query(held)).rowCount === 1);
      const running = report('alice', '0000000001');
      const waiting = `SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND wait_event_type = 'Lock'`;
      await until('the report waits on the replica', async () => (await onReplica.query(waiting)).rowCount === 1);
      // Past several checks of the replica.
      await new Promise((r) => setTimeout(r, 3 * REPLICA_TIMEOUT_MS));
      expect((await onReplica.query(waiting)).rowCount).toBe(1);
      expect(t.app.get(ReadReplica).usable).toBe(true);
      await locker.query('ROLLBACK');
      const res = await running;
      expect(res.status).toBe(200);
      expect((res.body.items as unknown[][]).map((row) => row[2])).toEqual(['Drive unit specification']);
      expect(t.app.get(ReadReplica).usable).toBe(true);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
      await onReplica.end();
    }
  });

  /**
   * A report and a page of alice with the replica's processes stopped after both of its pools
   * have connections to it (which now hang), in the order given: the first meets the hung
   * connections, the second comes right after it. Both answer from the primary, as only it has
   * the new name.
   */
  const whileHung = async (first: 'report' | 'page') => {
    await pair.catchUp();
    // The replica is tried again once it has been set aside long enough.
    await until('the service reads on the replica again', async () => t.app.get(ReadReplica).usable);
    const id = await open('alice');
    await pair.catchUp();
    expect(await reported('alice', '0000000001')).toEqual(['Drive unit specification']);
    expect((await page('alice', id)).find((i) => i.number === '0000000001')?.name).toBe('Drive unit specification');

    pair.freezeReplica();
    try {
      await rename('0000000001', 'Renamed while the replica hangs');
      const report = async () =>
        expect(await reported('alice', '0000000001')).toEqual(['Renamed while the replica hangs']);
      const onePage = async () => {
        const items = await page('alice', id);
        expect(items.find((i) => i.number === '0000000001')?.name).toBe('Renamed while the replica hangs');
      };
      for (const read of first === 'report' ? [report, onePage] : [onePage, report]) await read();
      // The connections to the hung replica are dropped, not left to hold the pools' places.
      const pools = t.app.get(DatabasePools);
      await until(
        'no connection to the replica is left',
        async () => pools.replica!.totalCount + pools.replicaReports!.totalCount === 0,
      );
    } finally {
      pair.thawReplica();
      await rename('0000000001', 'Drive unit specification');
    }
  };

  it('reads on the primary when the replica hangs (its processes stopped): a report first', async () => {
    await whileHung('report');
  });

  it('reads on the primary when the replica hangs (its processes stopped): a page first', async () => {
    await whileHung('page');
  });
});
