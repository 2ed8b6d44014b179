import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';

@Injectable()
export class HealthRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Names of the migrations applied successfully, from Prisma's bookkeeping table. Read through
   * a named prepared statement on the pool under Prisma, as the file service reads, so that a
   * connection which cannot prepare statements (as once on the embedded database) makes the
   * service unready instead of answering 500 to file requests while ready says 200.
   */
  async appliedMigrations(): Promise<string[]> {
    const res = await this.prisma.pgPool.query<{ migration_name: string }>({
      name: 'health-applied-migrations',
      text: `SELECT migration_name FROM _prisma_migrations
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    });
    return res.rows.map((r) => r.migration_name);
  }
}
