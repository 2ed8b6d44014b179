import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Catalog } from './catalog.js';
import { standardCatalog } from './catalog-load.js';
import {
  CatalogError,
  type CatalogFile,
  type ClassExtension,
  type ClassSpec,
  type InterfaceSpec,
  type SoftTypeSpec,
} from './catalog-model.js';
import { CatalogRepository, type CatalogTypeRow } from './catalog.repository.js';

/**
 * The rows of catalog_types as one catalog file: classes, interfaces, soft types and extensions
 * of standard classes.
 */
export function userCatalogFile(rows: CatalogTypeRow[]): Required<CatalogFile> {
  return {
    classes: rows.filter((r) => r.kind === 'class').map((r) => r.spec as ClassSpec),
    interfaces: rows.filter((r) => r.kind === 'interface').map((r) => r.spec as InterfaceSpec),
    softTypes: rows.filter((r) => r.kind === 'softType').map((r) => r.spec as SoftTypeSpec),
    extensions: rows.filter((r) => r.kind === 'extension').map((r) => r.spec as ClassExtension),
  };
}

/**
 * The catalog in force: the standard catalog (catalog/standard, checked at start) with the
 * types users declared and their extensions of standard classes (catalog_types). At most every CATALOG_CHECK_INTERVAL_MS (1 s by
 * default) a use costs one small query (count and latest change of catalog_types); the user
 * types are read again only when that fingerprint changed, so an import on any instance is seen
 * by the reports that start a moment later.
 */
@Injectable()
export class CatalogService {
  private readonly logger = new Logger('Catalog');
  private cached: { fingerprint: string; catalog: Catalog; checkedAt: number } | null = null;

  constructor(
    private readonly repo: CatalogRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Throws CatalogError when the standard catalog has problems: the start is refused. */
  standard(): Catalog {
    return standardCatalog();
  }

  async current(): Promise<Catalog> {
    const now = Date.now();
    if (this.cached && now - this.cached.checkedAt < this.config.catalogCheckIntervalMs) return this.cached.catalog;
    const fingerprint = await this.repo.fingerprint();
    if (this.cached?.fingerprint === fingerprint) {
      this.cached.checkedAt = now;
      return this.cached.catalog;
    }
    let catalog = standardCatalog();
    if (fingerprint !== 'standard') {
      const file = userCatalogFile(await this.repo.all());
      try {
        catalog = catalog.extend([{ where: 'catalog_types', file, user: true }], fingerprint);
      } catch (e) {
        // The import checks types before it stores them; a table edited by hand may still not fit.
        if (!(e instanceof CatalogError)) throw e;
        this.logger.error(`user-declared types ignored: ${e.message}`);
      }
    }
    this.cached = { fingerprint, catalog, checkedAt: now };
    return catalog;
  }
}
