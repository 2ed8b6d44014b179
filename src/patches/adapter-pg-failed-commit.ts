/**
 * Patch of @prisma/adapter-pg, written for 6.19.3 (accepted on 6.19.x: see versions.ts).
 *
 * Touches: the transaction object the adapter's startTransaction() returns (class PgTransaction,
 * not exported): its executeRaw() is wrapped, and its `client` (the pooled pg connection) and
 * `cleanup` (removes the adapter's 'error' listener from it) are used.
 *
 * Why: Prisma 6.19's transaction manager never calls the transaction's commit()/rollback() when
 * COMMIT or ROLLBACK itself fails (the connection was killed mid-transaction), so the pooled
 * connection is never released and, once the pool is used up, every later query waits forever.
 * Here such a connection is released as broken (pg then discards it), so the service recovers by
 * itself.
 *
 * Remove when: a Prisma release releases the connection whatever COMMIT does (in a `finally`):
 * test/outage/connection-kills.e2e-spec.ts and test/patches/adapter-pg.e2e-spec.ts (a COMMIT on a
 * killed connection leaves the pool empty) then pass without it.
 */
import type { PrismaPg } from '@prisma/adapter-pg';
import { PatchError } from './patch-error.js';

const PATCH = 'adapter-pg-failed-commit';

interface Queryable {
  executeRaw(query: { sql: string }): Promise<number>;
}

/** What of adapter-pg's transaction object the patch uses. */
export interface TransactionInternals extends Queryable {
  client: { release(err?: Error): void };
  cleanup?: () => void;
}

interface AdapterInternals {
  startTransaction(isolationLevel?: unknown): Promise<Queryable>;
}

/** `tx` as adapter-pg's transaction object, or a PatchError when it lacks what the patch uses. */
export function transactionInternals(tx: unknown): TransactionInternals {
  const t = tx as Partial<TransactionInternals> | null | undefined;
  if (typeof t?.executeRaw !== 'function') throw new PatchError(PATCH, 'the transaction has no executeRaw()');
  if (typeof t.client?.release !== 'function')
    throw new PatchError(PATCH, 'the transaction has no `client` with release()');
  if (t.cleanup !== undefined && typeof t.cleanup !== 'function')
    throw new PatchError(PATCH, "the transaction's `cleanup` is not a function");
  return t as TransactionInternals;
}

/**
 * Patches `factory` (a PrismaPg): the transactions of the adapters it connects release their
 * connection as broken when COMMIT or ROLLBACK fails.
 */
export function releaseOnFailedCommit(factory: PrismaPg): PrismaPg {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const internals = adapter as unknown as AdapterInternals;
    if (typeof internals.startTransaction !== 'function')
      throw new PatchError(PATCH, 'the adapter has no startTransaction()');
    const start = internals.startTransaction.bind(adapter);
    internals.startTransaction = async (isolationLevel?: unknown) => {
      const tx = transactionInternals(await start(isolationLevel));
      const execute = tx.executeRaw.bind(tx);
      tx.executeRaw = async (query) => {
        try {
          return await execute(query);
        } catch (e) {
          if (query.sql === 'COMMIT' || query.sql === 'ROLLBACK') {
            tx.cleanup?.();
            tx.client.release(e instanceof Error ? e : new Error(String(e)));
          }
          throw e;
        }
      };
      return tx;
    };
    return adapter;
  };
  return factory;
}
