import { Module } from '@nestjs/common';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';
import { EventsController } from './events.controller.js';
import { HistoryController } from './history.controller.js';

/**
 * Reading the audit trail: GET /objects/<ref>/history and GET /admin/events. Events are
 * recorded by each service in the transaction of its change (the writes in audit.repository.ts).
 */
@Module({
  controllers: [HistoryController, EventsController],
  providers: [AuditRepository, AuditService],
})
export class AuditModule {}
