import pg from 'pg';
import { backendWaits, LOCK_WAIT_MS, withinMs } from '../helpers/bounded-wait.js';
import { embeddedTestRun, testDatabaseUrl, testPool } from '../helpers/test-database.js';

/**
 * The event log's order is the order of commits (migration 20261128100000_change_events): a
 * transaction appends its events at commit under a lock it keeps until its commit is visible.
 * Here a first transaction is held between appending and committing (by a deferred trigger of
 * the test, which fires after the log's own and waits for a lock the test holds), and a second
 * commits meanwhile. Without the lock, the second's event would be in the log, behind a position
 * a reader cannot see yet and would later skip.
 */
const PAUSE_KEY = '7362010413589119999';
const describeServer = embeddedTestRun() ? describe.skip : describe;

describeServer('the event log follows commits', () => {
  const db = testPool();
  const connect = async () => {
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    return client;
  };

  beforeAll(async () => {
    await db.query(`CREATE OR REPLACE FUNCTION test_event_log_pause() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.action = 'test.pause' THEN
          PERFORM pg_advisory_lock_shared(${PAUSE_KEY}::bigint);
          PERFORM pg_advisory_unlock_shared(${PAUSE_KEY}::bigint);
        END IF;
        RETURN NULL;
      END $$`);
    await db.query(`CREATE CONSTRAINT TRIGGER zz_test_event_log_pause AFTER INSERT ON audit_events
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_event_log_pause()`);
  });
  afterAll(async () => {
    await db.query('DROP TRIGGER IF EXISTS zz_test_event_log_pause ON audit_events');
    await db.query('DROP FUNCTION IF EXISTS test_event_log_pause()');
    await db.query(`DELETE FROM event_log WHERE event_id IN (SELECT id FROM audit_events WHERE action LIKE 'test.%')`);
    await db.query(`DELETE FROM audit_events WHERE action LIKE 'test.%'`);
  });

  /** Inserts one event in a transaction of its own and commits; answers its id and the backend's pid. */
  async function commitEvent(client: pg.Client, action: string): Promise<{ id: string; done: Promise<void> }> {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO audit_events (user_name, action) VALUES ('test', $1) RETURNING id::text`,
      [action],
    );
    return { id: rows[0].id, done: client.query('COMMIT').then(() => undefined) };
  }

  async function logged(ids: string[]): Promise<{ event_id: string; position: string }[]> {
    const { rows } = await db.query<{ event_id: string; position: string }>(
      'SELECT event_id::text, position::text FROM event_log l WHERE event_id = ANY($1::int8[]) ORDER BY l.position',
      [ids],
    );
    return rows;
  }

  it('a transaction committing while an earlier one is between its append and its commit waits for it', async () => {
    const [holder, a, b] = await Promise.all([connect(), connect(), connect()]);
    try {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [PAUSE_KEY]);
      const [{ pid: pidA }] = (await a.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      const [{ pid: pidB }] = (await b.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      const first = await commitEvent(a, 'test.pause');
      await backendWaits(db, pidA, 'the first commit waits in the test trigger, after appending', {
        pending: [first.done],
      });
      const second = await commitEvent(b, 'test.plain');
      await backendWaits(db, pidB, 'the second commit waits for the first one (the log lock)', {
        pending: [second.done],
      });
      expect(await logged([first.id, second.id])).toEqual([]);

      await holder.query('SELECT pg_advisory_unlock($1::bigint)', [PAUSE_KEY]);
      await withinMs(Promise.all([first.done, second.done]), LOCK_WAIT_MS, 'both commits finish once let go');
      const rows = await logged([first.id, second.id]);
      expect(rows.map((r) => r.event_id)).toEqual([first.id, second.id]);
      expect(BigInt(rows[0].position)).toBeLessThan(BigInt(rows[1].position));
    } finally {
      await Promise.all([holder.end(), a.end(), b.end()]);
    }
  });

  it('the events of one transaction are logged together, in the order they were recorded', async () => {
    const client = await connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO audit_events (user_name, action) SELECT 'test', 'test.batch.' || n FROM generate_series(1, 50) n RETURNING id::text`,
      );
      expect(await logged(rows.map((r) => r.id))).toEqual([]);
      await client.query('COMMIT');
      const logs = await logged(rows.map((r) => r.id));
      expect(logs.map((r) => r.event_id)).toEqual(rows.map((r) => r.id));
      expect(BigInt(logs[49].position) - BigInt(logs[0].position)).toBe(49n);
    } finally {
      await client.end();
    }
  });
});
