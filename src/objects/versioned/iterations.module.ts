import { Module } from '@nestjs/common';
import { IterationsService } from './iterations.service.js';

/**
 * The new iterations of versioned objects the files and numbers services make. A module of its
 * own rather than an export of ObjectsModule: that one uses the numbers service (numbering of
 * new objects), and the numbers module uses this one, so one module would import the other both ways.
 */
@Module({
  providers: [IterationsService],
  exports: [IterationsService],
})
export class IterationsModule {}
