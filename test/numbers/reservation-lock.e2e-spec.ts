import pg from 'pg';
import { reservationSql, type Reservation } from '../../src/numbers/numbers.repository.js';
import { backendWaits, LOCK_WAIT_MS, withinMs } from '../helpers/bounded-wait.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';
import { counterOf, createContainer, type TestContainer } from './numbers-fixtures.js';

const DOC = 'wt.doc.WTDocument';

async function reserve(client: pg.Client, containerId: number, count: number): Promise<Reservation> {
  const sql = reservationSql(containerId, { cls: DOC, table: 'masters' }, count);
  const { rows } = await client.query<Reservation>(sql.text, sql.values);
  return rows[0];
}

/**
 * The reservation statement below the batcher, on two connections forced to interleave: the
 * first reserves inside a transaction it keeps open, the second starts while the first holds
 * the rule row. Only because the rule row is read FOR UPDATE does the second, once the first
 * commits, see the counter the first left behind; a plain read would give it the same start.
 */
describe('reservationSql on two interleaved connections', () => {
  let pool: pg.Pool;
  let first: pg.Client;
  let second: pg.Client;
  let box: TestContainer;

  beforeAll(async () => {
    pool = testPool();
    first = new pg.Client({ connectionString: testDatabaseUrl() });
    second = new pg.Client({ connectionString: testDatabaseUrl() });
    await first.connect();
    await second.connect();
    box = await createContainer(pool, {
      name: 'numbers-reservation-lock',
      rules: [{ cls: DOC, prefix: 'RL', width: 6, next: 1 }],
    });
  });

  afterAll(async () => {
    await first.end();
    await second.end();
    await pool.query('DELETE FROM numbering_rules WHERE container_id = $1', [box.id]);
    await pool.query('DELETE FROM containers WHERE id = $1', [box.id]);
    await pool.end();
  });

  it('makes the second wait for the first and gives them distinct ranges', async () => {
    const secondPid = (await second.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    await first.query('BEGIN');
    const a = await reserve(first, box.id, 5);
    expect(a).toMatchObject({ start: '1', reserved: true });

    const pending = reserve(second, box.id, 3);
    await backendWaits(pool, secondPid, 'the second reservation waits for the first', { pending: [pending] });
    await first.query('COMMIT');
    const b = await withinMs(pending, LOCK_WAIT_MS, 'the second reservation is answered');

    expect(b).toMatchObject({ start: '6', reserved: true });
    expect(await counterOf(pool, box.id, DOC)).toBe('9');
  });
});
