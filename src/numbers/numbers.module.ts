import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { NumbersController } from './numbers.controller.js';
import { NumbersRepository } from './numbers.repository.js';
import { NumbersService } from './numbers.service.js';
import { ReservationBatcher } from './reservation-batcher.js';

@Module({
  imports: [CatalogModule],
  controllers: [NumbersController],
  providers: [NumbersService, NumbersRepository, ReservationBatcher],
  exports: [NumbersService],
})
export class NumbersModule {}
