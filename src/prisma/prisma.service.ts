import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { DatabasePools } from './database-pools.js';
import { createPgAdapter } from './pg-adapter.js';

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  /**
   * The connection pool under Prisma (DatabasePools.primary), for bulk bytes (file content) and
   * prepared statements: Prisma's driver adapter turns every bytea value into an array of
   * numbers, which caps it near 20 MB/s.
   */
  readonly pgPool: pg.Pool;

  constructor(pools: DatabasePools) {
    super({ adapter: createPgAdapter(pools.primary) });
    this.pgPool = pools.primary;
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  /** Disconnects Prisma; DatabasePools closes the pool afterwards. */
  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
