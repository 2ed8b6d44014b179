import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { CatalogModule } from '../catalog/catalog.module.js';
import { NumbersModule } from '../numbers/numbers.module.js';
import { CatalogLinksService } from './links/catalog-links.service.js';
import { CheckoutController } from './versioned/checkout.controller.js';
import { CheckoutService } from './versioned/checkout.service.js';
import { CatalogObjectsController } from './plain/catalog-objects.controller.js';
import { ObjectChangesController } from './versioned/object-changes.controller.js';
import { ObjectChangesService } from './versioned/object-changes.service.js';
import { ObjectsController } from './objects.controller.js';
import { ObjectListsRepository } from './versioned/object-lists.repository.js';
import { ObjectLookupService } from './versioned/object-lookup.service.js';
import { ObjectsRepository } from './versioned/objects.repository.js';
import { ObjectsService } from './objects.service.js';
import { PlainObjectsService } from './plain/plain-objects.service.js';
import { RelatedObjectsRepository } from './structure/related-objects.repository.js';
import { RelatedObjectsService } from './structure/related-objects.service.js';
import { StructureRepository } from './structure/structure.repository.js';
import { UsageLinksController } from './structure/usage-links.controller.js';
import { UsageLinksService } from './structure/usage-links.service.js';

@Module({
  imports: [AuthModule, CatalogModule, NumbersModule],
  controllers: [
    ObjectsController,
    ObjectChangesController,
    CheckoutController,
    UsageLinksController,
    CatalogObjectsController,
  ],
  providers: [
    ObjectsService,
    ObjectChangesService,
    CheckoutService,
    UsageLinksService,
    PlainObjectsService,
    CatalogLinksService,
    ObjectsRepository,
    StructureRepository,
    ObjectListsRepository,
    ObjectLookupService,
    RelatedObjectsRepository,
    RelatedObjectsService,
  ],
  exports: [ObjectLookupService, RelatedObjectsService],
})
export class ObjectsModule {}
