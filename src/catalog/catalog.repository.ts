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

  /** A cheap fingerprint of the table: it changes whenever a row is added, changed or removed. */
  async fingerprint(): Promise<string> {
    const [row] = await this.prisma.$queryRaw<{ n: number; last: Date | null }[]>`
      SELECT count(*)::integer AS n, max(modified_at) AS last FROM catalog_types`;
    return row.n === 0 ? 'standard' : `user:${row.n}:${row.last?.toISOString() ?? ''}`;
  }

  async all(): Promise<CatalogTypeRow[]> {
    return this.prisma.$queryRaw<CatalogTypeRow[]>`
      SELECT name, kind, spec FROM catalog_types ORDER BY created_at, name`;
  }
}
