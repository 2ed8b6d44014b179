import { Module } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { QueryController } from './query.controller.js';
import { QueryRepository } from './query.repository.js';
import { QueryService } from './query.service.js';

@Module({
  controllers: [QueryController],
  providers: [Clock, QueryService, QueryRepository],
})
export class QueryModule {}
