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
}
