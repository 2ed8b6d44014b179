import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { CatalogModule } from '../catalog/catalog.module.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';
import { EventsController } from './events.controller.js';
import { HistoryController } from './history.controller.js';

/**
 * Reading the audit trail: GET /objects/<ref>/history and GET /admin/events. Events are
 * recorded by each service in the transaction of its change (audit-events.ts).
 */
@Module({
  imports: [AuthModule, CatalogModule],
  controllers: [HistoryController, EventsController],
  providers: [AuditRepository, AuditService],
})
export class AuditModule {}
