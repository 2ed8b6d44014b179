import type pg from 'pg';
import { LOCK_WAIT_MS, lockWaiters, withinMs } from './bounded-wait.js';

/**
 * Two requests forced to interleave: a connection of the test takes `lock` (a statement such as
 * `LOCK TABLE usage_links IN SHARE MODE`) in a transaction, `first` starts, `second` starts once
 * the first waits for a lock, and the test lets go once both wait. Answers both, in that order.
 *
 * Every wait is bounded (bounded-wait.ts): a request that does not wait where a guard should
 * hold it, or that is not answered once let go, fails the test with a message saying which. The
 * holding connection is then ended, which lets go of its lock, so the requests still finish.
 * The pool needs room for the holder and one more connection.
 */
export async function interleave<T>(
  pool: pg.Pool,
  lock: string,
  first: () => PromiseLike<T>,
  second: () => PromiseLike<T>,
): Promise<[T, T]> {
  const holder = await pool.connect();
  let letGo = false;
  try {
    await holder.query('BEGIN');
    await holder.query(lock);
    const a = Promise.resolve(first());
    await lockWaiters(pool, 1, 'the first request waits for the lock the test holds', { pending: [a] });
    const b = Promise.resolve(second());
    await lockWaiters(pool, 2, 'the second request waits as well', { pending: [a, b] });
    await holder.query('COMMIT');
    letGo = true;
    return await withinMs(Promise.all([a, b]), LOCK_WAIT_MS, 'both requests are answered once the test lets go');
  } finally {
    holder.release(!letGo);
  }
}
