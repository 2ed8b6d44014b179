import { Injectable } from '@nestjs/common';
import type { Prisma } from '../../generated/prisma/client.js';
import { PrismaService } from '../../prisma/prisma.service.js';

/** A master as the import matches it: by class and number. */
export interface ImportedMaster {
  id: number;
  subtype: string | null;
  softType: string | null;
  name: string;
  containerId: number;
}

export type MasterFields = Omit<ImportedMaster, 'id'>;

/** An iteration as a dataset gives it; absent timestamps default to now on creation and are left alone on update. */
export interface ImportedIteration {
  masterId: number;
  version: string;
  iteration: number;
  state: string;
  title: string | null;
  description: string | null;
  attributes: Prisma.InputJsonValue;
  createdById: number;
  modifiedById: number;
  createdAt: Date | null;
  modifiedAt: Date | null;
}

/**
 * Masters and iterations of versioned objects as the dataset import writes them, in the
 * caller's transaction (PrismaService.transaction): matched by their natural keys, so importing
 * a file twice changes nothing.
 */
@Injectable()
export class ImportedObjectsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * The master, locked (FOR NO KEY UPDATE, as a change of it by /objects locks it) until the
   * import ends, with who holds it checked out: a check-out waits for the import, and the import
   * sees one committed before it.
   */
  async findMaster(cls: string, number: string): Promise<(ImportedMaster & { holder: string | null }) | null> {
    const rows = await this.prisma.$queryRaw<(ImportedMaster & { holder: string | null })[]>`
      SELECT m.id, m.subtype, m.soft_type AS "softType", m.name, m.container_id AS "containerId",
             (SELECT u.name FROM users u WHERE u.id = m.checked_out_by) AS holder
      FROM masters m WHERE m.class = ${cls} AND m.number = ${number}
      FOR NO KEY UPDATE OF m`;
    return rows[0] ?? null;
  }

  async createMaster(cls: string, number: string, fields: MasterFields): Promise<number> {
    const row = await this.prisma.master.create({ data: { cls, number, ...fields }, select: { id: true } });
    return row.id;
  }

  async updateMaster(id: number, fields: MasterFields): Promise<void> {
    await this.prisma.master.update({ where: { id }, data: { ...fields, modifiedAt: new Date() } });
  }

  /** Creates or updates the iteration (by master, version, iteration); its id. */
  async putIteration(it: ImportedIteration): Promise<number> {
    const { masterId, version, iteration, createdAt, modifiedAt, ...fields } = it;
    const row = await this.prisma.iteration.upsert({
      where: { masterId_version_iteration: { masterId, version, iteration } },
      create: {
        masterId,
        version,
        iteration,
        latest: false,
        ...fields,
        ...(createdAt && { createdAt }),
        ...((modifiedAt ?? createdAt) && { modifiedAt: modifiedAt ?? createdAt! }),
      },
      update: { ...fields, ...(createdAt && { createdAt }), ...(modifiedAt && { modifiedAt }) },
      select: { id: true },
    });
    return row.id;
  }

  /** Marks the highest version.iteration of each master latest (a working copy never is). */
  async recomputeLatest(masterIds: number[]): Promise<void> {
    if (!masterIds.length) return;
    // Two steps because at most one iteration per master may be latest at any time.
    await this.prisma.$executeRaw`
      UPDATE iterations SET latest = false
      WHERE master_id = ANY(${masterIds}::int[]) AND latest`;
    await this.prisma.$executeRaw`
      UPDATE iterations SET latest = true
      WHERE id IN (
        SELECT DISTINCT ON (master_id) id FROM iterations
        WHERE master_id = ANY(${masterIds}::int[]) AND NOT working
        ORDER BY master_id, length(version) DESC, version DESC, iteration DESC)`;
  }

  /**
   * The stamps of masters an import made: created with their first iteration and last modified
   * with their last one (min and max over their iterations).
   */
  async stampFromIterations(masterIds: number[]): Promise<void> {
    if (!masterIds.length) return;
    await this.prisma.$executeRaw`
      UPDATE masters m
      SET created_at = i.first_created, modified_at = GREATEST(i.first_created, i.last_modified)
      FROM (
        SELECT master_id, min(created_at) AS first_created, max(modified_at) AS last_modified
        FROM iterations WHERE master_id = ANY(${masterIds}::int[])
        GROUP BY master_id
      ) i
      WHERE m.id = i.master_id`;
  }

  /** Merges `values` into a master's JSON; a master whose JSON holds them already is left alone. */
  async mergeMasterAttributes(masterId: number, values: Record<string, unknown>): Promise<void> {
    const text = JSON.stringify(values);
    await this.prisma.$executeRaw`
      UPDATE masters SET attributes = attributes || ${text}::jsonb, modified_at = now()
      WHERE id = ${masterId} AND NOT attributes @> ${text}::jsonb`;
  }

  /** Merges `values` (resolved references) into an iteration's JSON. */
  async mergeIterationAttributes(iterationId: number, values: Record<string, unknown>): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE iterations SET attributes = attributes || ${JSON.stringify(values)}::jsonb WHERE id = ${iterationId}`;
  }
}
