import { Injectable } from '@nestjs/common';
import type { Prisma } from '../../generated/prisma/client.js';
import { PrismaService } from '../../prisma/prisma.service.js';

/** A plain catalog object as a dataset gives it; timestamps given or left to the database. */
export interface ImportedPlain {
  cls: string;
  number: string | null;
  softType: string | null;
  name: string | null;
  state: string | null;
  containerId: number | null;
  createdById: number;
  modifiedById: number;
  props: Prisma.InputJsonValue;
  createdAt: Date | null;
  modifiedAt: Date | null;
}

/** Objects of plain catalog classes as the dataset import writes them, in the caller's transaction. */
@Injectable()
export class ImportedPlainRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Creates or updates the object matched by class and number (or name when it has none); its id. */
  async put(o: ImportedPlain): Promise<number> {
    const { cls, number, createdAt, modifiedAt, ...rest } = o;
    const existing = await this.prisma.plainObject.findFirst({
      where: number !== null ? { cls, number } : { cls, number: null, name: rest.name },
      select: { id: true },
    });
    const fields = {
      ...rest,
      ...(createdAt && { createdAt }),
      ...((modifiedAt ?? createdAt) && { modifiedAt: modifiedAt ?? createdAt! }),
    };
    const row = existing
      ? await this.prisma.plainObject.update({ where: { id: existing.id }, data: fields, select: { id: true } })
      : await this.prisma.plainObject.create({ data: { cls, number, ...fields }, select: { id: true } });
    return row.id;
  }

  /** Merges `values` (resolved references) into an object's JSON. */
  async mergeProps(id: number, values: Record<string, unknown>): Promise<void> {
    await this.prisma
      .$executeRaw`UPDATE objects SET props = props || ${JSON.stringify(values)}::jsonb WHERE id = ${id}`;
  }
}
