import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../prisma/prisma.service.js';
import { UsageLinksTx } from './usage-links.repository.js';

/** A usage link as a dataset gives it. */
export interface ImportedUsageLink {
  cls: string;
  parentId: number;
  childId: number;
  quantity: number;
  unit: string;
  lineNumber: bigint | null;
  /** When the link was made (with its iteration); null: now. */
  createdAt: Date | null;
}

/** Usage links as the dataset import writes them, in the caller's transaction. */
@Injectable()
export class ImportedUsageLinksRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The lock /objects adds usage links under (UsageLinksTx.lockStructures), waited for as long as it takes. */
  lockStructures(): Promise<void> {
    return new UsageLinksTx(this.prisma).lockStructures();
  }

  async masterId(cls: string, number: string): Promise<number | null> {
    const row = await this.prisma.master.findUnique({ where: { cls_number: { cls, number } }, select: { id: true } });
    return row?.id ?? null;
  }

  /** Adds the link, or updates the one with the same class, ends and line number when its quantity or unit differs. */
  async put(l: ImportedUsageLink): Promise<void> {
    const { cls, parentId, childId, lineNumber, createdAt } = l;
    const existing = await this.prisma.usageLink.findFirst({
      where: { cls, parentId, childId, lineNumber },
      select: { id: true, quantity: true, unit: true },
    });
    const fields = { quantity: l.quantity, unit: l.unit };
    if (!existing) {
      const stamps = createdAt && { createdAt, modifiedAt: createdAt };
      await this.prisma.usageLink.create({ data: { cls, parentId, childId, ...fields, lineNumber, ...stamps } });
    } else if (existing.quantity !== fields.quantity || existing.unit !== fields.unit) {
      await this.prisma.usageLink.update({ where: { id: existing.id }, data: { ...fields, modifiedAt: new Date() } });
    }
  }

  count(parentId: number): Promise<number> {
    return this.prisma.usageLink.count({ where: { parentId } });
  }
}
