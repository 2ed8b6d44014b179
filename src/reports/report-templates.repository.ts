import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';

/** A report template as a dataset gives it. */
export interface ImportedTemplate {
  name: string;
  containerId: number;
  description: string | null;
  qml: string;
}

/** Report templates as the dataset import writes them, in the caller's transaction. */
@Injectable()
export class ReportTemplatesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Creates the template, or updates the one of that name when it differs (modified_at moves then, and only then). */
  async put(t: ImportedTemplate): Promise<void> {
    const { name, ...fields } = t;
    const existing = await this.prisma.reportTemplate.findUnique({ where: { name } });
    if (!existing) await this.prisma.reportTemplate.create({ data: { name, ...fields } });
    else if (
      existing.containerId !== fields.containerId ||
      existing.description !== fields.description ||
      existing.qml !== fields.qml
    ) {
      await this.prisma.reportTemplate.update({
        where: { id: existing.id },
        data: { ...fields, modifiedAt: new Date() },
      });
    }
  }
}
