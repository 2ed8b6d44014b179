import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CatalogSource } from './catalog-build.js';
import { CatalogError, type CatalogFile, type CatalogProblem } from './catalog-model.js';
import { checkCatalogShape } from './catalog-schema.js';
import { Catalog } from './catalog.js';

/** The folder of the standard catalog: `catalog/standard` at the top of the project. */
export function standardCatalogDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'catalog', 'standard'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('catalog/standard not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return join(dir, 'catalog', 'standard');
}

/**
 * Reads every `*.json` of a folder (sorted by name), checks each against the JSON Schema and all
 * together for meaning. Throws CatalogError with every problem of every file.
 */
export function loadCatalogDir(dir: string): Catalog {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const problems: CatalogProblem[] = [];
  const sources: CatalogSource[] = [];
  for (const f of files) {
    const where = relative(process.cwd(), join(dir, f)) || f;
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    } catch (e) {
      problems.push({ where, message: `not JSON: ${(e as Error).message}` });
      continue;
    }
    const shape = checkCatalogShape(doc, where);
    if (shape.length) problems.push(...shape);
    else sources.push({ where, file: doc as CatalogFile });
  }
  try {
    const catalog = new Catalog(sources);
    if (problems.length) throw new CatalogError(problems);
    return catalog;
  } catch (e) {
    // The files of good shape are checked together too: every problem is listed at once.
    if (e instanceof CatalogError && e.problems !== problems) throw new CatalogError([...problems, ...e.problems]);
    throw e;
  }
}

let standard: Catalog | null = null;

/** The standard catalog, read once (a bad catalog throws CatalogError on first use). */
export function standardCatalog(): Catalog {
  standard ??= loadCatalogDir(standardCatalogDir());
  return standard;
}

/** Checks user-declared types (a dataset's `types`, rows of catalog_types) against the catalog. */
export function checkUserTypes(base: Catalog, file: unknown, where: string, version = 'check'): Catalog {
  const shape = checkCatalogShape(file, where);
  if (shape.length) throw new CatalogError(shape);
  return base.extend([{ where, file: file as CatalogFile, user: true }], version);
}
