import pg from 'pg';
import { AuthFailuresRepository, reserveSql } from '../../src/auth/auth-failures.repository.js';
import { ADDRESS_LIMIT_FACTOR, FailureThrottle, keys } from '../../src/auth/failure-throttle.js';
import { loadConfig } from '../../src/config/app-config.js';
import { DatabasePools } from '../../src/prisma/database-pools.js';
import { PrismaService } from '../../src/prisma/prisma.service.js';
import { backendWaits, LOCK_WAIT_MS, withinMs } from '../helpers/bounded-wait.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';

/** The failure counts stored for (name, address) and for the address. */
async function counts(db: pg.Pool, name: string, address: string): Promise<{ pair?: number; address?: number }> {
  const k = keys(name, address);
  const { rows } = await db.query<{ key: Buffer; count: number }>(
    'SELECT key, count FROM auth_failures WHERE key = ANY($1::bytea[])',
    [[k.pair, k.address]],
  );
  const find = (key: Buffer) => rows.find((r) => r.key.equals(key))?.count;
  return { pair: find(k.pair), address: find(k.address) };
}

/** Moves the windows of (name, address) and of the address into the past, as if they had run out. */
async function expire(db: pg.Pool, name: string, address: string): Promise<void> {
  const k = keys(name, address);
  await db.query(`UPDATE auth_failures SET reset_at = now() - interval '1 second' WHERE key = ANY($1::bytea[])`, [
    [k.pair, k.address],
  ]);
}

/** A refusal: the seconds left of the 60 s window (fewer than 60 when the test ran slowly). */
function refused(wait: number): void {
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(60);
}

/** Each test uses addresses of its own: the table is shared by the whole run. */
let n = 0;
const freshAddress = () => `203.0.113.${++n}-${process.pid}-${Date.now()}`;

describe('sign-in failure counts in PostgreSQL', () => {
  let pools: DatabasePools;
  let prisma: PrismaService;
  let throttle: FailureThrottle;
  let db: pg.Pool;

  beforeAll(async () => {
    const config = loadConfig({ DATABASE_URL: testDatabaseUrl(), AUTH_FAILURE_LIMIT: '3', LOG_LEVEL: 'silent' });
    pools = new DatabasePools(config);
    prisma = new PrismaService(pools);
    await prisma.onModuleInit();
    throttle = new FailureThrottle(new AuthFailuresRepository(prisma), config);
    db = testPool();
  });

  afterAll(async () => {
    await prisma.onModuleDestroy();
    await pools.onModuleDestroy();
    await db.end();
  });

  it('allows attempts up to the limit, refuses past it for the window, and counts again after it', async () => {
    const a = freshAddress();
    for (let i = 0; i < 3; i++) expect(await throttle.reserve('alice', a)).toBe(0);
    refused(await throttle.reserve('alice', a));
    refused(await throttle.retryAfter('alice', a));
    // Refused attempts are not counted, on the pair nor on the address.
    expect(await counts(db, 'alice', a)).toEqual({ pair: 3, address: 3 });
    await expire(db, 'alice', a);
    expect(await throttle.retryAfter('alice', a)).toBe(0);
    expect(await throttle.reserve('alice', a)).toBe(0);
    expect(await counts(db, 'alice', a)).toEqual({ pair: 1, address: 1 });
  });

  it('does not lock the user out at another address', async () => {
    const [bad, good] = [freshAddress(), freshAddress()];
    for (let i = 0; i < 5; i++) await throttle.reserve('alice', bad);
    expect(await throttle.retryAfter('alice', bad)).toBeGreaterThan(0);
    expect(await throttle.retryAfter('alice', good)).toBe(0);
    expect(await throttle.reserve('alice', good)).toBe(0);
  });

  it('limits one address guessing many user names to ten times the limit', async () => {
    const a = freshAddress();
    for (let i = 0; i < 30; i++) expect(await throttle.reserve(`user${i}`, a)).toBe(0);
    refused(await throttle.reserve('someone-new', a));
    refused(await throttle.retryAfter('someone-new', a));
    expect(await counts(db, 'someone-new', a)).toEqual({ address: 30 });
  });

  it('forgets the pair after a refunded (right) attempt and gives the address its attempt back', async () => {
    const a = freshAddress();
    for (let i = 0; i < 3; i++) await throttle.reserve('alice', a);
    await throttle.refund('alice', a);
    expect(await counts(db, 'alice', a)).toEqual({ address: 2 });
    expect(await throttle.reserve('alice', a)).toBe(0);
    // Many right sign-ins from one address (users behind one proxy) never throttle it.
    const proxy = freshAddress();
    for (let i = 0; i < 40; i++) {
      expect(await throttle.reserve(`user${i}`, proxy)).toBe(0);
      await throttle.refund(`user${i}`, proxy);
    }
    expect(await counts(db, 'user0', proxy)).toEqual({ address: 0 });
  });

  it('keeps no user name or address in clear, and sweeps counts whose window has passed', async () => {
    const a = freshAddress();
    await throttle.reserve('sweep-me', a);
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth_failures WHERE position(convert_to('sweep-me', 'UTF8') IN key) > 0`,
    );
    expect(rows[0].n).toBe(0);
    expect(await counts(db, 'sweep-me', a)).toEqual({ pair: 1, address: 1 });
    await expire(db, 'sweep-me', a);
    expect(await throttle.sweep()).toBeGreaterThanOrEqual(2);
    expect(await counts(db, 'sweep-me', a)).toEqual({});
  });

  /**
   * The statement on two connections forced to interleave: the first counts the last free
   * attempt inside a transaction it keeps open, the second starts meanwhile. Only because the
   * function takes the address's lock before it reads the counts does the second, once the first
   * commits, see the limit reached; without it, it would read the count from before and pass.
   */
  it('makes a second attempt wait for the first and then refuses it (two interleaved connections)', async () => {
    const a = freshAddress();
    for (let i = 0; i < 2; i++) expect(await throttle.reserve('mallory', a)).toBe(0);
    const first = new pg.Client({ connectionString: testDatabaseUrl() });
    const second = new pg.Client({ connectionString: testDatabaseUrl() });
    await first.connect();
    await second.connect();
    try {
      const secondPid = (await second.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await first.query('BEGIN');
      const one = reserveSql(keys('mallory', a), { pair: 3, address: 3 * ADDRESS_LIMIT_FACTOR }, 60_000);
      expect((await first.query<{ wait: number }>(one.text, one.values)).rows[0].wait).toBe(0);

      const pending = second.query<{ wait: number }>(one.text, one.values);
      await backendWaits(db, secondPid, 'the second attempt waits for the first', { pending: [pending] });
      await first.query('COMMIT');
      refused((await withinMs(pending, LOCK_WAIT_MS, 'the second attempt is answered')).rows[0].wait);
      expect(await counts(db, 'mallory', a)).toEqual({ pair: 3, address: 3 });
    } finally {
      await first.end();
      await second.end();
    }
  });
});
