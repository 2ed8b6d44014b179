import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type pg from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';
import { DatabasePools } from './database-pools.js';
import { createPgAdapter } from './pg-adapter.js';
import { routeToTransaction, runTransaction, type TransactionOptions, type Tx } from './transactions.js';

/**
 * The service's one database handle: Prisma over its pg driver adapter, on the primary pool
 * (DatabasePools.primary), and the one transaction helper, `transaction()` (see
 * transactions.ts: statements made through this handle inside it run in the transaction).
 */
/** A transaction of the handle: its connection (Tx) and the handle itself, for Prisma calls in it. */
export interface DbTx extends Tx {
  /** The database handle; inside the transaction its statements run in it. */
  readonly db: Prisma.TransactionClient;
}

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  /**
   * The pool under Prisma, for bulk bytes (file content), COPY and prepared statements: Prisma's
   * driver adapter turns every bytea value into an array of numbers, which caps it near 20 MB/s.
   * Inside `transaction()`, its statements run in the transaction.
   */
  readonly pgPool: pg.Pool;

  /** `pools`: the service's (DatabasePools), or a script's one pool (createPrismaService in client.ts). */
  constructor(@Inject(DatabasePools) pools: Pick<DatabasePools, 'primary'>) {
    const pool = routeToTransaction(pools.primary);
    super({ adapter: createPgAdapter(pool) });
    this.pgPool = pool;
  }

  /**
   * Runs `work` in one transaction: COMMIT when it returns, ROLLBACK when it throws; inside
   * another transaction, a savepoint of it. Every statement of `work` made through this handle
   * (Prisma calls, `$queryRaw`, `pgPool`, `tx.query`) runs in it; `tx.db` is this handle, for
   * code that takes the transaction's handle as a parameter.
   */
  transaction<T>(work: (tx: DbTx) => Promise<T>, options?: TransactionOptions): Promise<T> {
    return runTransaction(this.pgPool, (tx) => work(Object.assign(tx, { db: this })), options);
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  /** Disconnects Prisma; DatabasePools closes the pool afterwards. */
  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
