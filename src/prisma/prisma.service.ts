import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { createPgAdapter } from './pg-adapter.js';
import { createPgPool } from './pg-pool.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  /**
   * The connection pool under Prisma, for bulk bytes only (file content): Prisma's driver adapter
   * turns every bytea value into an array of numbers, which caps it near 20 MB/s. Sharing one pool
   * keeps DB_POOL_MAX the limit for the whole process (the embedded database allows one connection).
   */
  readonly pgPool: pg.Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const pool = createPgPool(config, { statementTimeoutMs: config.dbStatementTimeoutMs });
    super({ adapter: createPgAdapter(pool) });
    this.pgPool = pool;
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
