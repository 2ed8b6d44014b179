import { Module } from '@nestjs/common';
import { NumbersController } from './numbers.controller.js';
import { NumbersRepository } from './numbers.repository.js';
import { NumbersService } from './numbers.service.js';
import { ReservationBatcher } from './reservation-batcher.js';

@Module({
  controllers: [NumbersController],
  providers: [NumbersService, NumbersRepository, ReservationBatcher],
})
export class NumbersModule {}
