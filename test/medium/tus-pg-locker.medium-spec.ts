import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { TusLocksRepository } from '../../src/files/tus/tus-locks.repository.js';
import { TusPgLocker, type TusLockTiming } from '../../src/files/tus/tus-pg-locker.js';
import { LOCK_WAIT_MS, pollUntil, withinMs } from '../helpers/bounded-wait.js';
import { embeddedTestRun } from '../helpers/test-database.js';
import { useServices } from './medium-database.js';

const uploadId = () => randomBytes(16).toString('hex');
const open = () => new AbortController().signal;

/**
 * The locks of resumable uploads on a PostgreSQL server: each TusPgLocker stands for one instance
 * of the service (a locking connection of its own), so two of them share the database as two
 * instances do. The embedded database has one connection and one instance: see the unit spec.
 */
(embeddedTestRun() ? describe.skip : describe)('TusPgLocker across instances', () => {
  const s = useServices({ providers: [TusLocksRepository] });
  const lockers: TusPgLocker[] = [];
  const instance = (timing: Partial<TusLockTiming> = {}) => {
    const locker = new TusPgLocker(s.get(TusLocksRepository), s.config, { pollMs: 10, ...timing });
    lockers.push(locker);
    return locker;
  };
  afterEach(async () => {
    for (const locker of lockers.splice(0)) await locker.onModuleDestroy();
  });

  /** The backends that hold the upload's advisory lock (74530, hashtext(id)). */
  const holders = async (id: string) => {
    const { rows } = await s.pool.query<{ pid: number }>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = 74530
         AND objid::bigint = (hashtext($1)::bigint + 4294967296) % 4294967296`,
      [id],
    );
    return rows.map((r) => r.pid);
  };

  it('makes a request for an upload another instance holds wait, and asks that instance to let go', async () => {
    const [a, b] = [instance(), instance()];
    const id = uploadId();
    const askA = jest.fn<() => void>();
    const onA = a.newLock(id);
    await onA.lock(open(), askA);
    const [holderA] = await holders(id);
    expect(holderA).toEqual(expect.any(Number));

    const askB = jest.fn<() => void>();
    const onB = b.newLock(id);
    const waiting = onB.lock(open(), askB);
    // The notice reaches the instance holding the upload, whose request is asked to let go;
    // the waiter has not got the lock meanwhile.
    await pollUntil(async () => askA.mock.calls.length > 0, 'the holder is asked to let go', { pending: [waiting] });
    expect(await holders(id)).toEqual([holderA]);
    // Another upload is not held up by it.
    const other = b.newLock(uploadId());
    await other.lock(open(), jest.fn<() => void>());
    await other.unlock();

    await onA.unlock();
    await withinMs(waiting, LOCK_WAIT_MS, 'the waiter gets the lock once the holder lets go');
    const [holderB] = await holders(id);
    expect(holderB).toEqual(expect.any(Number));
    expect(holderB).not.toBe(holderA);
    expect(askB).not.toHaveBeenCalled();
    await onB.unlock();
    expect(await holders(id)).toEqual([]);
  });

  it('lets the requests of one instance take turns on its one connection, the newer asking the older to let go', async () => {
    const a = instance();
    const id = uploadId();
    const askFirst = jest.fn<() => void>();
    const first = a.newLock(id);
    await first.lock(open(), askFirst);
    const [holder] = await holders(id);
    const second = a.newLock(id);
    const waiting = second.lock(open(), jest.fn<() => void>());
    await pollUntil(async () => askFirst.mock.calls.length > 0, 'the holder is asked to let go', {
      pending: [waiting],
    });
    // Locks of uploads held at once share the connection.
    const other = a.newLock(uploadId());
    await other.lock(open(), jest.fn<() => void>());
    await first.unlock();
    await withinMs(waiting, LOCK_WAIT_MS, 'the second request gets the lock once the first lets go');
    expect(await holders(id)).toEqual([holder]);
    await second.unlock();
    await other.unlock();
    expect(await holders(id)).toEqual([]);
  });

  it('answers 423 when the holder does not let go in time, and leaves the lock to it', async () => {
    const [a, b] = [instance(), instance({ timeoutMs: 300 })];
    const id = uploadId();
    // A holder that does not let go when asked.
    const ignored = jest.fn<() => void>();
    const held = a.newLock(id);
    await held.lock(open(), ignored);
    const [holder] = await holders(id);
    await expect(b.newLock(id).lock(open(), jest.fn<() => void>())).rejects.toMatchObject({
      status_code: 423,
      body: `upload ${id} is in use by another request that did not let go within 300 ms; try again (HEAD tells where to resume)`,
    });
    // A request aborted while it waits stops waiting as well.
    const abort = new AbortController();
    const asked = ignored.mock.calls.length;
    expect(asked).toBeGreaterThan(0);
    const aborted = instance().newLock(id).lock(abort.signal, jest.fn<() => void>());
    await pollUntil(async () => ignored.mock.calls.length > asked, 'the third request waits and asks', {
      pending: [aborted],
    });
    abort.abort();
    await expect(aborted).rejects.toMatchObject({ status_code: 423 });
    expect(await holders(id)).toEqual([holder]);
    await held.unlock();
    const next = b.newLock(id);
    await next.lock(open(), jest.fn<() => void>());
    await next.unlock();
    expect(await holders(id)).toEqual([]);
  });

  it('asks the requests of a lost locking connection to let go, and opens a new one for the next lock', async () => {
    const [a, b] = [instance(), instance()];
    const id = uploadId();
    const ask = jest.fn<() => void>();
    const held = a.newLock(id);
    await held.lock(open(), ask);
    const [lost] = await holders(id);
    await s.pool.query('SELECT pg_terminate_backend($1)', [lost]);
    await pollUntil(async () => ask.mock.calls.length > 0, 'the request whose lock went is asked to let go');
    // Its lock went with the connection: the other instance gets it at once.
    const onB = b.newLock(id);
    await onB.lock(open(), jest.fn<() => void>());
    await held.unlock();
    expect((await holders(id)).length).toBe(1);
    await onB.unlock();
    const again = a.newLock(id);
    await again.lock(open(), jest.fn<() => void>());
    const [reconnected] = await holders(id);
    expect(reconnected).not.toBe(lost);
    await again.unlock();
    expect(await holders(id)).toEqual([]);
  });
});
