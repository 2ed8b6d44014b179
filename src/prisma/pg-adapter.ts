import { PrismaPg } from '@prisma/adapter-pg';
import type { Pool, PoolConfig } from 'pg';

interface Queryable {
  executeRaw(query: { sql: string }): Promise<number>;
}
interface PgTransactionInternals extends Queryable {
  client: { release(err?: Error): void };
  cleanup?: () => void;
}
interface PgAdapter {
  startTransaction(isolationLevel?: unknown): Promise<Queryable>;
}

/**
 * The pg driver adapter with a workaround for a defect of Prisma 6.19's transaction manager:
 * when COMMIT or ROLLBACK itself fails (the connection was killed mid-transaction), it never
 * calls the adapter's commit()/rollback(), so the pooled connection is never released and,
 * once the pool is used up, every later query waits forever. Here such a connection is
 * released as broken (pg then discards it), so the service recovers by itself.
 * Remove when moving to a Prisma release that releases the connection in a `finally`.
 *
 * A pool given is left open when Prisma disconnects: its owner (DatabasePools) closes it.
 */
export function createPgAdapter(poolOrConfig: Pool | PoolConfig): PrismaPg {
  const factory = new PrismaPg(poolOrConfig);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const internals = adapter as unknown as PgAdapter;
    const start = internals.startTransaction.bind(adapter);
    internals.startTransaction = async (isolationLevel?: unknown) => {
      const tx = (await start(isolationLevel)) as PgTransactionInternals;
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
