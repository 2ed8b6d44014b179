import { Module } from '@nestjs/common';
import { QueryController } from './query.controller.js';
import { QueryRepository } from './query.repository.js';
import { QueryService } from './query.service.js';

@Module({
  controllers: [QueryController],
  providers: [QueryService, QueryRepository],
})
export class QueryModule {}
