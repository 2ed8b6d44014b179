import { Module } from '@nestjs/common';
import { ObjectsController } from './objects.controller.js';
import { ObjectsService } from './objects.service.js';
import { StructureRepository } from './structure.repository.js';

@Module({
  controllers: [ObjectsController],
  providers: [ObjectsService, StructureRepository],
})
export class ObjectsModule {}
