import { Module } from '@nestjs/common';
import { IterationsModule } from '../objects/versioned/iterations.module.js';
import { CadController } from './cad.controller.js';
import { CadRepository } from './cad.repository.js';
import { CadService } from './cad.service.js';
import { NumbersController } from './numbers.controller.js';
import { NumbersRepository } from './numbers.repository.js';
import { NumbersService } from './numbers.service.js';
import { ReservationBatcher } from './reservation-batcher.js';

@Module({
  imports: [IterationsModule],
  controllers: [NumbersController, CadController],
  providers: [NumbersService, NumbersRepository, ReservationBatcher, CadService, CadRepository],
  exports: [NumbersService],
})
export class NumbersModule {}
