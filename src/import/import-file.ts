import { readFile } from 'node:fs/promises';
import { createPrismaService } from '../prisma/client.js';
import type { Catalog } from '../catalog/catalog.js';
import { standardCatalog } from '../catalog/catalog-load.js';
import { userCatalogFile } from '../catalog/catalog.service.js';
import type { PrismaService } from '../prisma/prisma.service.js';
import type { Lifecycle } from '../config/lifecycle.js';
import type { BlobStoresConfig } from '../files/stores/blob-stores.js';
import { DatasetError, validateDataset } from './dataset.js';
import { StoreImportBlobs } from './import-blobs.js';
import { importDataset, type ImportProgress, type ImportSummary } from './importer.js';
import { importServices } from './import-services.js';

/** What the import checks the dataset against beyond the catalog, and where its file bytes go: the configuration of the service. */
export interface ImportOptions {
  /** The states documents, parts and CAD documents may have (by default the default lifecycle's). */
  lifecycle?: Lifecycle;
  /** Most usage links one iteration may hold (OBJECTS_MAX_LINKS; default 10 000). */
  maxLinks?: number;
  /**
   * The file stores (FILES_STORE, FILES_VAULT_DIR, FILES_S3_*): file bytes go to FILES_STORE as
   * uploads' do. Without it, or with FILES_STORE=postgres, they go to PostgreSQL, in the
   * import's transaction.
   */
  files?: BlobStoresConfig;
  /** Told how far the import is (see ImportProgressReporter). */
  progress?: (progress: ImportProgress) => void;
  /** Who imports (the creator of records without createdBy): a user, stored or in the dataset; default admin. */
  importingUser?: string;
}

/** Reads, validates and imports a `pdm-dataset/1` file into the database at `databaseUrl`. */
export async function importFile(
  path: string,
  databaseUrl: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  return importText(await readFile(path, 'utf8'), path, databaseUrl, options);
}

/** Validates and imports a `pdm-dataset/1` document read from `source` (for messages). */
export async function importText(
  text: string,
  source: string,
  databaseUrl: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new DatasetError(`${source} is not JSON: ${(e as Error).message}`);
  }
  const { prisma, close } = createPrismaService(databaseUrl);
  let blobs: StoreImportBlobs | undefined;
  try {
    const dataset = validateDataset(json, await catalogInForce(prisma), options.lifecycle);
    const files = options.files;
    if (files && files.filesStore !== 'postgres') blobs = await StoreImportBlobs.open(databaseUrl, files);
    return await importDataset(prisma, dataset, {
      source,
      maxLinks: options.maxLinks,
      blobs,
      progress: options.progress,
      importingUser: options.importingUser,
    });
  } finally {
    await close();
    await blobs?.close();
  }
}

/**
 * The standard catalog with the types earlier imports declared: a dataset may use them. Types the
 * dataset declares again replace those of the same name.
 */
export async function catalogInForce(prisma: PrismaService): Promise<Catalog> {
  const rows = await importServices(prisma).catalog.declared();
  if (rows.length === 0) return standardCatalog();
  return standardCatalog().extend([{ where: 'catalog_types', file: userCatalogFile(rows), user: true }], 'import');
}
