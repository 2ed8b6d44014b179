import { Module } from '@nestjs/common';
import { CatalogLinksService } from './catalog-links.service.js';
import { CatalogObjectsController } from './catalog-objects.controller.js';
import { ObjectChangesController } from './object-changes.controller.js';
import { ObjectChangesService } from './object-changes.service.js';
import { ObjectsController } from './objects.controller.js';
import { ObjectsRepository } from './objects.repository.js';
import { ObjectsService } from './objects.service.js';
import { PlainObjectsService } from './plain-objects.service.js';
import { StructureRepository } from './structure.repository.js';
import { UsageLinksController } from './usage-links.controller.js';
import { UsageLinksService } from './usage-links.service.js';

@Module({
  controllers: [ObjectsController, ObjectChangesController, UsageLinksController, CatalogObjectsController],
  providers: [
    ObjectsService,
    ObjectChangesService,
    UsageLinksService,
    PlainObjectsService,
    CatalogLinksService,
    ObjectsRepository,
    StructureRepository,
  ],
})
export class ObjectsModule {}
