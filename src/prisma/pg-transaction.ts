import type pg from 'pg';
import { runTransaction } from './transactions.js';

/**
 * `work` with the connection of a transaction on `pool` (see runTransaction in transactions.ts,
 * the one transaction helper: inside an open transaction this is a savepoint of it), for code
 * that drives the connection itself.
 */
export function inPgTransaction<T>(pool: pg.Pool, work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
  return runTransaction(pool, (tx) => work(tx.client));
}
