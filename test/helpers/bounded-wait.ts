import type pg from 'pg';

/**
 * Waits of tests that force two connections to interleave. A guard that is missing shows as a
 * request that never reaches the lock it should wait for, or never finishes once let go: each
 * wait is bounded, so such a test fails with a message naming what did not happen instead of
 * hanging until Jest's timeout. The bound is no timing assertion: it is far above what any of
 * these waits takes, and only decides when to give up.
 */
export const LOCK_WAIT_MS = 10_000;

/** `promise`'s outcome, or an error naming `what` when it has not settled within `ms`. */
export async function withinMs<T>(promise: PromiseLike<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up after ${ms} ms waiting until ${what}`)), ms);
  });
  try {
    return await Promise.race([Promise.resolve(promise), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls `check` every 10 ms until it holds. Fails naming `what` after `ms`, or as soon as one of
 * `pending` settles first (a request answered before it waited where it should have).
 */
export async function pollUntil(
  check: () => Promise<boolean>,
  what: string,
  opts: { ms?: number; pending?: readonly PromiseLike<unknown>[] } = {},
): Promise<void> {
  const ms = opts.ms ?? LOCK_WAIT_MS;
  let answered = false;
  for (const p of opts.pending ?? []) {
    Promise.resolve(p).then(
      () => (answered = true),
      () => (answered = true),
    );
  }
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (answered) throw new Error(`a request was answered before ${what}`);
    if (Date.now() >= deadline) throw new Error(`gave up after ${ms} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Resolves once `n` backends of the pool's database wait for a lock another session holds
 * (`where`, SQL over pg_stat_activity, narrows which backends count). Bounded as pollUntil.
 */
export function lockWaiters(
  pool: pg.Pool,
  n: number,
  what: string,
  opts: { ms?: number; pending?: readonly PromiseLike<unknown>[]; where?: string } = {},
): Promise<void> {
  const sql = `SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0${opts.where ? ` AND (${opts.where})` : ''}`;
  return pollUntil(async () => (await pool.query<{ n: number }>(sql)).rows[0].n >= n, what, opts);
}

/** Resolves once the backend `pid` waits for a lock another session holds. Bounded as pollUntil. */
export function backendWaits(
  pool: pg.Pool,
  pid: number,
  what: string,
  opts: { ms?: number; pending?: readonly PromiseLike<unknown>[] } = {},
): Promise<void> {
  return pollUntil(
    async () =>
      (await pool.query<{ n: number }>('SELECT cardinality(pg_blocking_pids($1))::int AS n', [pid])).rows[0].n > 0,
    what,
    opts,
  );
}
