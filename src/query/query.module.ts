import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { CatalogModule } from '../catalog/catalog.module.js';
import { Clock } from '../common/clock.js';
import { AssociationsRepository } from './associations/associations.repository.js';
import { ASSOCIATION_LOADER } from './associations/query-associations.port.js';
import { QueryAssociations } from './associations/query-associations.service.js';
import { QueryController } from './query.controller.js';
import { QueryRepository } from './query.repository.js';
import { QueryService } from './query.service.js';

@Module({
  imports: [AuthModule, CatalogModule],
  controllers: [QueryController],
  providers: [
    Clock,
    QueryService,
    QueryRepository,
    AssociationsRepository,
    { provide: ASSOCIATION_LOADER, useClass: QueryAssociations },
  ],
})
export class QueryModule {}
