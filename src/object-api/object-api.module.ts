import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { CatalogModule } from '../catalog/catalog.module.js';
import { ObjectsModule } from '../objects/objects.module.js';
import { ObjectApiController } from './object-api.controller.js';
import { ObjectApiService } from './object-api.service.js';
import { UsersApiController } from './users-api.controller.js';

/**
 * The object API of the original gateway (`api/1.0/documents`, `epmdocuments`, `parts`, `users`),
 * for its clients: reads only, through the objects module (objects) and auth (users).
 */
@Module({
  imports: [AuthModule, CatalogModule, ObjectsModule],
  controllers: [UsersApiController, ObjectApiController],
  providers: [ObjectApiService],
})
export class ObjectApiModule {}
