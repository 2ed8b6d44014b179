import { Injectable } from '@nestjs/common';
import { mergeExtension } from './catalog-extend.js';
import type { ClassExtension } from './catalog-model.js';
import { CatalogRepository, type CatalogTypeRow } from './catalog.repository.js';

/**
 * The types users declare (catalog_types) as the dataset import stores them, in the caller's
 * transaction (PrismaService.transaction).
 */
@Injectable()
export class CatalogTypesService {
  constructor(private readonly repo: CatalogRepository) {}

  /** Every declared row, oldest first. */
  declared(): Promise<CatalogTypeRow[]> {
    return this.repo.all();
  }

  /** Stores classes, interfaces and soft types, replacing earlier versions by name. */
  putTypes(rows: CatalogTypeRow[]): Promise<void> {
    return this.repo.putTypes(rows);
  }

  /**
   * Merges an extension into the row of its class (named as the class, kind `extension`), made
   * when there is none, under the row's lock. The problems that refuse it: the name holds
   * another kind, or entries given otherwise than those stored; none when it was stored.
   */
  async putExtension(ext: ClassExtension): Promise<string[]> {
    if (await this.repo.insertExtension(ext.class, ext)) return [];
    const row = await this.repo.lockRow(ext.class);
    if (row.kind !== 'extension') return [`catalog_types holds ${ext.class} as a ${row.kind}, not an extension`];
    const { merged, clashes } = mergeExtension(row.spec as ClassExtension, ext);
    if (clashes.length) return clashes;
    await this.repo.updateSpec(ext.class, merged);
    return [];
  }
}
