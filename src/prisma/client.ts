import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';

/** A Prisma client over the pg driver adapter, for scripts (import, seed) outside the app. */
export function createPrismaClient(databaseUrl: string, max = 2): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max }) });
}
