import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * The one transaction helper of the service, and how every statement finds its transaction.
 *
 * `runTransaction(pool, work)` opens a transaction on a connection of the pool (BEGIN … COMMIT,
 * ROLLBACK when `work` throws) and makes it the current transaction of `work`'s async context.
 * While it is open, every statement made through the routed pool (`routeToTransaction`), which
 * is the pool under Prisma and `PrismaService.pgPool`, runs on that connection: Prisma model
 * calls and `$queryRaw` as much as `tx.query()` and pg-level work (prepared statements, COPY,
 * cursors). Repositories therefore take the transaction either explicitly (a `Tx`) or from the
 * context, and a write that spans modules is one transaction without handing clients around.
 *
 * Inside a transaction, a nested `runTransaction`, a Prisma `$transaction` (or a nested write
 * Prisma wraps in one) and a `pool.connect()` … BEGIN become a savepoint of the open transaction:
 * the connection is never a second one (the embedded database has a single connection), and
 * a failing inner part rolls back only itself when the caller catches its error.
 *
 * Only statements for the pool the transaction was opened on join it: a transaction on another
 * pool (a test's own, the reports pool) leaves the handle's statements alone.
 *
 * Once the transaction has ended, its context routes nothing any more: work it started that
 * outlives it (a timer, a batch) runs on the pool as any other statement.
 */
export interface Tx {
  /**
   * The transaction's connection, for what needs the driver itself (COPY, cursors); the helper
   * gives it back to its pool, never the caller.
   */
  readonly client: pg.PoolClient;
  /** Runs one statement (parameters $1, $2 …) in the transaction; `name` prepares it once per connection. */
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[], name?: string): Promise<R[]>;
}

interface OpenTransaction {
  /** The pool the transaction's connection came from: only statements for that pool join it. */
  pool: pg.Pool;
  /** Null once the transaction has ended. */
  client: pg.PoolClient | null;
  /** Savepoints made so far, for unique names. */
  savepoints: number;
}

const current = new AsyncLocalStorage<OpenTransaction>();

/** The pool behind each routed pool (routeToTransaction). */
const routedPools = new WeakMap<pg.Pool, pg.Pool>();

/** The open transaction of this async context on `pool` (routed or not), if any. */
function openOn(pool: pg.Pool): OpenTransaction | null {
  const open = current.getStore();
  return open?.client && open.pool === (routedPools.get(pool) ?? pool) ? open : null;
}

class OpenTx implements Tx {
  constructor(private readonly open: OpenTransaction) {}

  get client(): pg.PoolClient {
    if (!this.open.client) throw new Error('the transaction has ended');
    return this.open.client;
  }

  async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = [], name?: string): Promise<R[]> {
    const res = await this.client.query<R>(name ? { name, text, values } : { text, values });
    return res.rows;
  }
}

/** How a transaction starts; only for an outermost one (a savepoint keeps its transaction's). */
export interface TransactionOptions {
  /** READ ONLY: it may not write (reports). */
  readOnly?: boolean;
  /** Its statement timeout (SET LOCAL), when it differs from the pool's; 0 for none. */
  statementTimeoutMs?: number;
  /**
   * false: rolled back even when `work` returns, for one that only holds locks (or rows only it
   * sees) while `work` does something outside the database; a ROLLBACK that fails then discards
   * the connection but does not fail the call. Default true.
   */
  commit?: boolean;
}

/**
 * Runs `work` in a transaction on a connection of `pool` (see the top of this file), or in a
 * savepoint of the transaction already open in this async context.
 */
export async function runTransaction<T>(
  pool: pg.Pool,
  work: (tx: Tx) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const outer = openOn(pool);
  if (outer?.client) return inSavepoint(outer, outer.client, () => work(new OpenTx(outer)), options.commit !== false);
  const begin = beginStatement(options);
  const client = await pool.connect();
  const ignore = () => undefined;
  // An error the server sends while the connection is checked out reaches the caller through
  // the failing statement instead of crashing the process as an unhandled 'error' event.
  client.on('error', ignore);
  const open: OpenTransaction = { pool: routedPools.get(pool) ?? pool, client, savepoints: 0 };
  let broken: Error | undefined;
  try {
    await client.query(begin);
    // Awaited inside the context: a Prisma call returned unawaited by `work` only starts when
    // awaited (its promise is lazy), and must start in the transaction too.
    const result = await current.run(open, async () => await work(new OpenTx(open)));
    open.client = null;
    if (options.commit !== false) await client.query('COMMIT');
    else {
      // A connection lost by now has rolled back as well: the connection goes, the result stands.
      await client.query('ROLLBACK').catch((e: unknown) => {
        broken = e instanceof Error ? e : new Error(String(e));
      });
    }
    return result;
  } catch (e) {
    open.client = null;
    // A connection that cannot even roll back is discarded rather than reused.
    await client.query('ROLLBACK').catch(() => {
      broken = e instanceof Error ? e : new Error(String(e));
    });
    throw e;
  } finally {
    open.client = null;
    client.off('error', ignore);
    client.release(broken);
  }
}

/** BEGIN with the options; the timeout is a whole number checked here, never text from outside. */
function beginStatement({ readOnly, statementTimeoutMs }: TransactionOptions): string {
  let begin = readOnly ? 'BEGIN READ ONLY' : 'BEGIN';
  if (statementTimeoutMs !== undefined) {
    if (!Number.isSafeInteger(statementTimeoutMs) || statementTimeoutMs < 0)
      throw new Error(`statement timeout ${statementTimeoutMs} is not a whole number of milliseconds`);
    begin += `; SET LOCAL statement_timeout = ${statementTimeoutMs}`;
  }
  return begin;
}

async function inSavepoint<T>(
  open: OpenTransaction,
  client: pg.ClientBase,
  work: () => Promise<T>,
  commit: boolean,
): Promise<T> {
  open.savepoints += 1;
  const name = `nested_${open.savepoints}`;
  await client.query(`SAVEPOINT ${name}`);
  try {
    const result = await work();
    await client.query(commit ? `RELEASE SAVEPOINT ${name}` : `ROLLBACK TO SAVEPOINT ${name}`);
    return result;
  } catch (e) {
    await client.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
    throw e;
  }
}

/**
 * `pool`, routed: inside an open transaction (runTransaction), `query()` runs on the
 * transaction's connection and `connect()` hands out that connection as a client whose
 * BEGIN / COMMIT / ROLLBACK are a savepoint and whose release() keeps it open. Outside, it is
 * the pool itself. Prisma's pg adapter uses exactly these two methods of the pool it is given.
 */
export function routeToTransaction(pool: pg.Pool): pg.Pool {
  const routed = new Proxy(pool, {
    get(target, prop) {
      if (prop === 'query') {
        return (...args: unknown[]) => {
          const on = openOn(target)?.client ?? target;
          return Reflect.apply(on.query, on, args) as unknown;
        };
      }
      if (prop === 'connect') {
        return (...args: unknown[]) => {
          const open = openOn(target);
          if (open?.client) return Promise.resolve(savepointClient(open, open.client));
          return Reflect.apply(target.connect, target, args) as unknown;
        };
      }
      return forward(target, prop);
    },
  });
  routedPools.set(routed, pool);
  return routed;
}

/** The open transaction's connection, as a client of its own whose transaction is a savepoint. */
function savepointClient(open: OpenTransaction, client: pg.PoolClient): pg.PoolClient {
  let name: string | null = null;
  const statement = (text: string): string | null => {
    const keyword = text.trim().toUpperCase();
    if (keyword === 'BEGIN' || keyword.startsWith('BEGIN ') || keyword === 'START TRANSACTION') {
      open.savepoints += 1;
      name = `nested_${open.savepoints}`;
      return `SAVEPOINT ${name}`;
    }
    if (name && (keyword === 'COMMIT' || keyword === 'END')) return `RELEASE SAVEPOINT ${name}`;
    if (name && keyword === 'ROLLBACK') return `ROLLBACK TO SAVEPOINT ${name}`;
    return null;
  };
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'release') return () => undefined;
      if (prop === 'query') {
        return (config: unknown, ...rest: unknown[]) => {
          const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
          const replaced = typeof text === 'string' ? statement(text) : null;
          if (replaced === null) return Reflect.apply(target.query, target, [config, ...rest]) as unknown;
          const next = typeof config === 'string' ? replaced : { ...(config as object), text: replaced };
          return Reflect.apply(target.query, target, [next, ...rest]) as unknown;
        };
      }
      return forward(target, prop);
    },
  });
}

/** `target[prop]`, a method bound to `target`. */
function forward(target: object, prop: string | symbol): unknown {
  const value: unknown = Reflect.get(target, prop, target);
  return typeof value === 'function' ? value.bind(target) : value;
}
