import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { DatabasePools } from './database-pools.js';
import { createPgAdapter } from './pg-adapter.js';
import {
  checkStatements,
  connectionPool,
  isConnectionPool,
  runTransaction,
  type TransactionOptions,
  type Tx,
} from './transactions.js';

/** A transaction of the handle: its connection (Tx) and a handle bound to it. */
export interface DbTx extends Tx {
  /**
   * The database handle of the transaction: its Prisma calls, `$queryRaw`, `pgPool` and
   * `transaction()` (a savepoint) run on the transaction's connection. Repositories and services
   * built on it run in the transaction; it serves no statement once the transaction has ended.
   */
  readonly db: PrismaService;
}

/** A handle bound to one transaction's connection at a time, and its pool. */
interface BoundHandle {
  db: PrismaService;
  bind(tx: Tx | null): void;
}

/**
 * The service's one database handle: Prisma over its pg driver adapter, on the primary pool
 * (DatabasePools.primary), and the one transaction helper, `transaction()` (transactions.ts).
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  /**
   * The pool under Prisma, for bulk bytes (file content), COPY and prepared statements: Prisma's
   * driver adapter turns every bytea value into an array of numbers, which caps it near 20 MB/s.
   * On a transaction's handle (`tx.db`), the transaction's connection.
   */
  readonly pgPool: pg.Pool;
  /** Handles made for transactions, each bound to one at a time; at most one per pooled connection. */
  private readonly handles: BoundHandle[] = [];
  private readonly idle: BoundHandle[] = [];

  /** `pools`: the service's (DatabasePools), or a script's one pool (createPrismaService in client.ts). */
  constructor(@Inject(DatabasePools) pools: Pick<DatabasePools, 'primary'>) {
    const pool = isConnectionPool(pools.primary) ? pools.primary : checkStatements(pools.primary);
    super({ adapter: createPgAdapter(pool) });
    this.pgPool = pool;
  }

  /**
   * Runs `work` in one transaction: COMMIT when it returns, ROLLBACK when it throws; on a
   * transaction's handle, a savepoint of that transaction. `work`'s statements go through what
   * it is given: `tx.db` (a handle bound to the transaction's connection), `tx.query`,
   * `tx.client`; a statement through this handle would run outside the transaction.
   */
  transaction<T>(work: (tx: DbTx) => Promise<T>, options?: TransactionOptions): Promise<T> {
    if (isConnectionPool(this.pgPool)) {
      return runTransaction(this.pgPool, (tx) => work(Object.assign(tx, { db: this })), options);
    }
    return runTransaction(
      this.pgPool,
      async (tx) => {
        const handle = this.idle.pop() ?? this.newHandle();
        handle.bind(tx);
        try {
          return await work(Object.assign(tx, { db: handle.db }));
        } finally {
          handle.bind(null);
          this.idle.push(handle);
        }
      },
      options,
    );
  }

  /** A handle on a connection pool of its own (connectionPool); made once, then reused. */
  private newHandle(): BoundHandle {
    const { pool, bind } = connectionPool();
    const handle = { db: new PrismaService({ primary: pool }), bind };
    this.handles.push(handle);
    return handle;
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  /** Disconnects Prisma and the transactions' handles; DatabasePools closes the pool afterwards. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.handles.map((h) => h.db.$disconnect()));
    await this.$disconnect();
  }
}
