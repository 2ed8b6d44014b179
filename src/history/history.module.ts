import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { CatalogModule } from '../catalog/catalog.module.js';
import { AuditService } from './audit.service.js';
import { EventsController } from './events.controller.js';
import { HistoryController } from './history.controller.js';
import { HistoryRepository } from './history.repository.js';

/**
 * Reading the audit trail: GET /objects/<ref>/history and GET /admin/events. Events are
 * recorded by each service in the transaction of its change (the writes in audit/audit.repository.ts,
 * which every writing module uses: a folder apart, so that auth can record events without importing this reading side).
 */
@Module({
  imports: [AuthModule, CatalogModule],
  controllers: [HistoryController, EventsController],
  providers: [HistoryRepository, AuditService],
})
export class HistoryModule {}
