import type pg from 'pg';
import { runTransaction, type TransactionOptions } from './transactions.js';

/**
 * `work` with the connection of a transaction on `pool` (see runTransaction in transactions.ts,
 * the one transaction helper: inside an open transaction this is a savepoint of it), for code
 * that drives the connection itself.
 */
export function inPgTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  options?: TransactionOptions,
): Promise<T> {
  return runTransaction(pool, (tx) => work(tx.client), options);
}

/**
 * Runs `work` on a pooled pg connection outside a transaction (a COPY TO, for one). A connection
 * whose work failed is discarded: it may be left in the middle of the statement. Errors the
 * server sends while it is checked out reach the caller through the failing query, as in
 * inPgTransaction.
 */
export async function withPgClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const ignore = () => undefined;
  client.on('error', ignore);
  let failure: Error | undefined;
  try {
    return await work(client);
  } catch (e) {
    failure = e as Error;
    throw e;
  } finally {
    client.off('error', ignore);
    client.release(failure);
  }
}
