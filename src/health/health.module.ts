import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { HealthRepository } from './health.repository.js';
import { HealthService } from './health.service.js';
import { RootController } from './root.controller.js';

@Module({
  controllers: [HealthController, RootController],
  providers: [HealthRepository, HealthService],
})
export class HealthModule {}
