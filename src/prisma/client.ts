import pg from 'pg';
import { guardPool } from './pg-connection-loss.js';
import { PrismaService } from './prisma.service.js';

/** The service's database handle on a pool of a script's own; `close()` disconnects it and ends the pool. */
export interface StandalonePrisma {
  readonly prisma: PrismaService;
  close(): Promise<void>;
}

/**
 * The service's handle (PrismaService, with its transaction helper) for a script outside the
 * app (the dataset import), so the repositories and services of the modules run there as they
 * do in the service. A lost connection fails the statement using it, never the process.
 */
export function createPrismaService(databaseUrl: string, max = 2): StandalonePrisma {
  const primary = guardPool(new pg.Pool({ connectionString: databaseUrl, max }), () => undefined);
  const prisma = new PrismaService({ primary });
  return {
    prisma,
    async close() {
      await prisma.onModuleDestroy();
      await primary.end();
    },
  };
}
