import { Module } from '@nestjs/common';
import { CatalogController } from './catalog.controller.js';
import { ReportsController } from './reports.controller.js';
import { ReportsRepository } from './reports.repository.js';
import { ReportsService } from './reports.service.js';

@Module({
  controllers: [CatalogController, ReportsController],
  providers: [ReportsService, ReportsRepository],
})
export class ReportsModule {}
