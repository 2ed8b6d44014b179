import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';
import { auditViaPrisma, recordAuditAs, recordNamedEvents, type NamedEvent } from './audit.repository.js';

export type { NamedEvent } from './audit.repository.js';

/** The audit events of the dataset import (src/import) and of the demo data, in the caller's transaction. */
@Injectable()
export class AuditImportService {
  constructor(private readonly prisma: PrismaService) {}

  /** The import's one event, in the importing user's name (who may not be a user here). */
  recordImport(userName: string, detail: Record<string, unknown>): Promise<void> {
    return recordAuditAs(auditViaPrisma(this.prisma), userName, 'import', detail);
  }

  /** Events given by names (the demo data's audit trail); those recorded already are skipped. */
  recordNamed(events: readonly NamedEvent[]): Promise<void> {
    return recordNamedEvents((text, values) => this.prisma.pgPool.query(text, values), events);
  }
}
