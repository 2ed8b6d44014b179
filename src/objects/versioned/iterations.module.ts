import { Module } from '@nestjs/common';
import { IterationsService } from './iterations.service.js';

/**
 * The new iterations of versioned objects the files and CAD services make. A module of its own
 * rather than an export of ObjectsModule, so that they depend on this alone and not on the object
 * services and the numbering those use.
 */
@Module({
  providers: [IterationsService],
  exports: [IterationsService],
})
export class IterationsModule {}
