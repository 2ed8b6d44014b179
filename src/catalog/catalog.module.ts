import { Module } from '@nestjs/common';
import { CatalogRepository } from './catalog.repository.js';
import { CatalogService } from './catalog.service.js';

/** The type catalog for every service: the standard files and the types users declared. */
@Module({
  providers: [CatalogService, CatalogRepository],
  exports: [CatalogService],
})
export class CatalogModule {}
