import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/**
 * The one transaction helper of the service.
 *
 * `runTransaction(pool, work)` opens a transaction on a connection of the pool (BEGIN … COMMIT,
 * ROLLBACK when `work` throws) and hands `work` the transaction (`Tx`): its connection and a
 * `query()` that runs on it. Code in the transaction makes its statements through what it is
 * handed, never through the pool: PrismaService.transaction() adds `tx.db`, a database handle
 * bound to the transaction's connection (connectionPool below), so Prisma calls, `$queryRaw`,
 * `pgPool` and the repositories and services built on that handle all run in the transaction.
 *
 * Nesting: `runTransaction` on a connection pool (the pool of a transaction's handle) is a
 * savepoint of its transaction, and so is a Prisma `$transaction` on that handle or a
 * `connect()` … BEGIN on its pool: never a second connection (the embedded database has one),
 * and a failing inner part rolls back only itself when the caller catches its error.
 *
 * The transaction is found through what is passed, not through an async context: an
 * AsyncLocalStorage makes Node run its promise hooks for every promise of the process once it
 * has been entered (a third of the requests per second of a small write). The test suites set
 * DB_CHECK_TRANSACTIONS=1, which keeps one for a check only (checkStatements): a statement made
 * through the service's own pool while a transaction of that pool is open in the same async
 * context fails, since it would run outside the transaction (and wait for a second connection
 * on the embedded database).
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
  /** The pool the transaction's connection came from (for the check). */
  pool: pg.Pool;
  /** Null once the transaction has ended. */
  client: pg.PoolClient | null;
  /** Savepoints made so far, for unique names. */
  savepoints: number;
}

/** Only in the test suites (see the top of this file). */
const checked = process.env.DB_CHECK_TRANSACTIONS === '1' ? new AsyncLocalStorage<OpenTransaction>() : null;

/** The transaction each connection pool (connectionPool) is bound to, null between transactions. */
const bindings = new WeakMap<pg.Pool, { open: OpenTransaction | null }>();

/** The pool behind each checked pool (checkStatements). */
const checkedPools = new WeakMap<pg.Pool, pg.Pool>();

class OpenTx implements Tx {
  constructor(readonly open: OpenTransaction) {}

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
 * Runs `work` in a transaction on a connection of `pool` (see the top of this file); on a
 * connection pool, in a savepoint of its transaction.
 */
export async function runTransaction<T>(
  pool: pg.Pool,
  work: (tx: Tx) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const binding = bindings.get(pool);
  if (binding) {
    const open = binding.open;
    if (!open?.client) throw new Error('the transaction has ended');
    return inSavepoint(open, open.client, () => work(new OpenTx(open)), options.commit !== false);
  }
  const root = checkedPools.get(pool) ?? pool;
  if (checked?.getStore()?.client && checked.getStore()?.pool === root) throw outsideError('a second transaction');
  const begin = beginStatement(options);
  const client = await root.connect();
  const ignore = () => undefined;
  // An error the server sends while the connection is checked out reaches the caller through
  // the failing statement instead of crashing the process as an unhandled 'error' event.
  client.on('error', ignore);
  const open: OpenTransaction = { pool: root, client, savepoints: 0 };
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const result = checked ? await checked.run(open, () => work(new OpenTx(open))) : await work(new OpenTx(open));
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
 * A pool whose one connection is the connection of the transaction it is bound to (`bind`):
 * `query()` runs there, `connect()` hands out that connection as a client whose BEGIN / COMMIT /
 * ROLLBACK are a savepoint and whose release() keeps it open, and runTransaction on it is a
 * savepoint. Between transactions (`bind(null)`) every statement fails. Prisma's pg adapter uses
 * exactly these two methods of the pool it is given (and needs a pg.Pool: this is one that
 * never connects by itself).
 */
export function connectionPool(): { pool: pg.Pool; bind(tx: Tx | null): void } {
  const pool = new pg.Pool({ max: 1 });
  const binding: { open: OpenTransaction | null } = { open: null };
  const ended = () => Promise.reject(new Error('the transaction has ended'));
  pool.query = ((...args: unknown[]) => {
    const client = binding.open?.client;
    if (!client) return ended();
    return Reflect.apply(client.query, client, args) as unknown;
  }) as pg.Pool['query'];
  pool.connect = (() => {
    const open = binding.open;
    if (!open?.client) return ended();
    return Promise.resolve(savepointClient(open, open.client));
  }) as pg.Pool['connect'];
  pool.end = (() => Promise.resolve()) as pg.Pool['end'];
  bindings.set(pool, binding);
  return {
    pool,
    bind(tx) {
      binding.open = tx instanceof OpenTx ? tx.open : null;
    },
  };
}

/** True for a connection pool (connectionPool): a transaction on it is a savepoint. */
export function isConnectionPool(pool: pg.Pool): boolean {
  return bindings.has(pool);
}

/**
 * `pool`, checked when the test suites ask (see the top of this file): a statement or a
 * `connect()` through it while a transaction of it is open in the same async context fails,
 * naming what to use instead. Otherwise `pool` itself.
 */
export function checkStatements(pool: pg.Pool): pg.Pool {
  const store = checked;
  if (!store) return pool;
  const inside = (target: pg.Pool) => {
    const open = store.getStore();
    return !!open?.client && open.pool === target;
  };
  const proxy = new Proxy(pool, {
    get(target, prop) {
      if (prop === 'query' || prop === 'connect') {
        const method = prop === 'query' ? target.query : target.connect;
        return (...args: unknown[]) => {
          if (inside(target)) throw outsideError(prop === 'query' ? 'a statement' : 'a second connection');
          return Reflect.apply(method, target, args) as unknown;
        };
      }
      return forward(target, prop);
    },
  });
  checkedPools.set(proxy, pool);
  return proxy;
}

function outsideError(what: string): Error {
  return new Error(
    `${what} through the service's database handle inside one of its transactions: it would run ` +
      `outside the transaction (and wait for a second connection on the embedded database); use ` +
      `the transaction's handle (tx.db) or tx.query`,
  );
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
