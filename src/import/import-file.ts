import { readFile } from 'node:fs/promises';
import { createPrismaClient } from '../prisma/client.js';
import { DatasetError, validateDataset } from './dataset.js';
import { importDataset, type ImportSummary } from './importer.js';

/** Reads, validates and imports a `pdm-dataset/1` file into the database at `databaseUrl`. */
export async function importFile(path: string, databaseUrl: string): Promise<ImportSummary> {
  const text = await readFile(path, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new DatasetError(`${path} is not JSON: ${(e as Error).message}`);
  }
  const dataset = validateDataset(json);
  const prisma = createPrismaClient(databaseUrl);
  try {
    return await importDataset(prisma, dataset);
  } finally {
    await prisma.$disconnect();
  }
}
