import { PrismaClient } from '../generated/prisma/client.js';
import { createPgAdapter } from './pg-adapter.js';

/** A Prisma client over the pg driver adapter, for scripts (import, seed) outside the app. */
export function createPrismaClient(databaseUrl: string, max = 2): PrismaClient {
  return new PrismaClient({ adapter: createPgAdapter({ connectionString: databaseUrl, max }) });
}
