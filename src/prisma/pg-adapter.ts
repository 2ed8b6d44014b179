import { PrismaPg } from '@prisma/adapter-pg';
import type { Pool, PoolConfig } from 'pg';
import { releaseOnFailedCommit } from '../patches/adapter-pg-failed-commit.js';

/**
 * The pg driver adapter, with the workaround for a defect of Prisma 6.19's transaction manager
 * (a connection whose COMMIT or ROLLBACK failed was never released: see
 * src/patches/adapter-pg-failed-commit.ts).
 *
 * A pool given is left open when Prisma disconnects: its owner (DatabasePools) closes it.
 */
export function createPgAdapter(poolOrConfig: Pool | PoolConfig): PrismaPg {
  return releaseOnFailedCommit(new PrismaPg(poolOrConfig));
}
