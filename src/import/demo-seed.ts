import { join } from 'node:path';
import type { BlobStoresConfig } from '../files/stores/blob-stores.js';
import { createPrismaClient } from '../prisma/client.js';
import { projectRoot } from '../prisma/migrate.js';
import { seedDemoEvents } from './demo-events.js';
import { importFile } from './import-file.js';

/** The project's copy of the demo dataset. */
export const DEMO_DATASET = join(projectRoot(), 'prisma', 'demo-dataset.json');

/**
 * Imports the demo dataset and its audit trail (demo-events.ts); with onlyIfEmpty, only into a
 * database that has no users yet. The files' bytes go to the store `files` configures (see
 * importFile), by default to PostgreSQL.
 */
export async function seedDemoData(
  databaseUrl: string,
  opts: { onlyIfEmpty?: boolean; files?: BlobStoresConfig } = {},
): Promise<boolean> {
  if (opts.onlyIfEmpty) {
    const prisma = createPrismaClient(databaseUrl, 1);
    try {
      if ((await prisma.user.count()) > 0) return false;
    } finally {
      await prisma.$disconnect();
    }
  }
  await importFile(DEMO_DATASET, databaseUrl, { files: opts.files });
  await seedDemoEvents(databaseUrl);
  return true;
}
