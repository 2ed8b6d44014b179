import { jest } from '@jest/globals';
import type { AppConfig } from '../../config/app-config.js';
import type { TusLocksRepository } from './tus-locks.repository.js';
import { TusPgLocker } from './tus-pg-locker.js';

/** Whether a promise has settled yet (after the microtasks queued so far). */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

const ID = '0123456789abcdef0123456789abcdef';
const open = () => new AbortController().signal;

// On the embedded database (one connection, one instance) the requests take turns in memory:
// no statement is made, so no database is needed here. The database locks are in
// test/medium/tus-pg-locker.medium-spec.ts.
describe('TusPgLocker on the embedded database (in memory)', () => {
  const noStatements = new Proxy({} as TusLocksRepository, {
    get: () => {
      throw new Error('no statement on the embedded database');
    },
  });
  const locker = (timeoutMs = 10_000) =>
    new TusPgLocker(noStatements, { embeddedDatabase: true } as AppConfig, { timeoutMs });

  it('lets the requests of one upload take turns, the newer asking the holder to let go', async () => {
    const l = locker();
    const askFirst = jest.fn<() => void>();
    const first = l.newLock(ID);
    await first.lock(open(), askFirst);
    const second = l.newLock(ID);
    const waiting = second.lock(open(), jest.fn<() => void>());
    expect(await settled(waiting)).toBe(false);
    expect(askFirst).toHaveBeenCalledTimes(1);
    // Another upload does not wait.
    const other = l.newLock('fedcba9876543210fedcba9876543210');
    await other.lock(open(), jest.fn<() => void>());
    await other.unlock();
    await first.unlock();
    await expect(waiting).resolves.toBeUndefined();
    await second.unlock();
  });

  it('answers 423 when the holder does not let go in time, and 423 to a request aborted while it waits', async () => {
    const l = locker(50);
    const holder = l.newLock(ID);
    await holder.lock(open(), () => undefined);
    await expect(l.newLock(ID).lock(open(), jest.fn<() => void>())).rejects.toMatchObject({
      status_code: 423,
      body: `upload ${ID} is in use by another request that did not let go within 50 ms; try again (HEAD tells where to resume)`,
    });
    const patient = locker(60_000);
    const first = patient.newLock(ID);
    await first.lock(open(), () => undefined);
    const abort = new AbortController();
    const waiting = patient.newLock(ID).lock(abort.signal, jest.fn<() => void>());
    expect(await settled(waiting)).toBe(false);
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ status_code: 423 });
    // Neither left anything behind: the upload is free once its holders let go.
    await holder.unlock();
    await first.unlock();
    for (const x of [l, patient]) {
      const again = x.newLock(ID);
      await again.lock(open(), jest.fn<() => void>());
      await again.unlock();
    }
  });

  it('takes an unlock of a lock it does not hold (a second unlock) as nothing', async () => {
    const l = locker();
    const lock = l.newLock(ID);
    await lock.lock(open(), jest.fn<() => void>());
    await lock.unlock();
    await expect(lock.unlock()).resolves.toBeUndefined();
  });
});
