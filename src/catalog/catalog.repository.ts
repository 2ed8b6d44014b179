import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';

export interface CatalogTypeRow {
  name: string;
  kind: string;
  spec: unknown;
}

/** The classes and soft types users declared, and their extensions of standard classes (table catalog_types). */
@Injectable()
export class CatalogRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * A cheap fingerprint of the table: it changes whenever a row is added, changed or removed. A
   * hash of the rows, not their latest modified_at: an import stamps its rows with the time its
   * transaction started, so one that commits after a later-started one (merging an extension
   * into an existing row) would leave count and latest time as they were.
   */
  async fingerprint(): Promise<string> {
    const [row] = await this.prisma.$queryRaw<{ n: number; h: string | null }[]>`
      SELECT count(*)::integer AS n, md5(string_agg(name || ' ' || kind || ' ' || spec::text, ' ' ORDER BY name)) AS h
      FROM catalog_types`;
    return row.n === 0 ? 'standard' : `user:${row.n}:${row.h ?? ''}`;
  }

  async all(): Promise<CatalogTypeRow[]> {
    return this.prisma.$queryRaw<CatalogTypeRow[]>`
      SELECT name, kind, spec FROM catalog_types ORDER BY created_at, name`;
  }

  /**
   * Stores declared classes, interfaces and soft types, replacing earlier versions by name;
   * modified_at moves only when the declaration changed: the services reload on it.
   */
  async putTypes(rows: CatalogTypeRow[]): Promise<void> {
    for (const r of rows) {
      await this.prisma.$executeRaw`
        INSERT INTO catalog_types (name, kind, spec) VALUES (${r.name}, ${r.kind}, ${JSON.stringify(r.spec)}::jsonb)
        ON CONFLICT (name) DO UPDATE SET kind = EXCLUDED.kind, spec = EXCLUDED.spec, modified_at = now()
        WHERE catalog_types.spec IS DISTINCT FROM EXCLUDED.spec OR catalog_types.kind IS DISTINCT FROM EXCLUDED.kind`;
    }
  }

  /** Adds the extension row of a class; false when the name has a row already. */
  async insertExtension(name: string, spec: unknown): Promise<boolean> {
    const inserted = await this.prisma.$queryRaw<{ name: string }[]>`
      INSERT INTO catalog_types (name, kind, spec) VALUES (${name}, 'extension', ${JSON.stringify(spec)}::jsonb)
      ON CONFLICT (name) DO NOTHING RETURNING name`;
    return inserted.length > 0;
  }

  /** The row of a name, locked until the transaction ends (its extension is merged under the lock). */
  async lockRow(name: string): Promise<CatalogTypeRow> {
    const [row] = await this.prisma.$queryRaw<CatalogTypeRow[]>`
      SELECT name, kind, spec FROM catalog_types WHERE name = ${name} FOR UPDATE`;
    return row;
  }

  /** Replaces the spec of an extension row when it differs. */
  async updateSpec(name: string, spec: unknown): Promise<void> {
    const text = JSON.stringify(spec);
    await this.prisma.$executeRaw`
      UPDATE catalog_types SET spec = ${text}::jsonb, modified_at = now()
      WHERE name = ${name} AND spec IS DISTINCT FROM ${text}::jsonb`;
  }
}
