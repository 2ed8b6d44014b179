import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NamedEvent } from '../audit/audit-import.service.js';
import { createPrismaService } from '../prisma/client.js';
import { projectRoot } from '../prisma/migrate.js';
import { importServices } from './import-services.js';

/** The audit trail of the demo data: what the services would have recorded as it was made. */
export const DEMO_EVENTS = join(projectRoot(), 'prisma', 'demo-events.json');

/**
 * Records the demo events (prisma/demo-events.json) after the demo dataset, in one transaction;
 * an event already there (same time, user, action and object) is not recorded again, so loading
 * the demo data twice changes nothing. An event whose user or object is missing is left out.
 */
export async function seedDemoEvents(databaseUrl: string): Promise<void> {
  const { events } = JSON.parse(await readFile(DEMO_EVENTS, 'utf8')) as { events: NamedEvent[] };
  const { prisma, close } = createPrismaService(databaseUrl, 1);
  try {
    await prisma.transaction(({ db }) => importServices(db).audit.recordNamed(events));
  } finally {
    await close();
  }
}
