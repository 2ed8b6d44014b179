import { readFile } from 'node:fs/promises';
import { createPrismaClient } from '../prisma/client.js';
import { DatasetError, validateDataset } from './dataset.js';
import { importDataset, type ImportSummary } from './importer.js';

/** Reads, validates and imports a `pdm-dataset/1` file into the database at `databaseUrl`. */
export async function importFile(path: string, databaseUrl: string): Promise<ImportSummary> {
  return importText(await readFile(path, 'utf8'), path, databaseUrl);
}

/** Validates and imports a `pdm-dataset/1` document read from `source` (for messages). */
export async function importText(text: string, source: string, databaseUrl: string): Promise<ImportSummary> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new DatasetError(`${source} is not JSON: ${(e as Error).message}`);
  }
  const dataset = validateDataset(json);
  const prisma = createPrismaClient(databaseUrl);
  try {
    return await importDataset(prisma, dataset);
  } finally {
    await prisma.$disconnect();
  }
}
