import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { Clock } from '../common/clock.js';
import { ObjectsModule } from '../objects/objects.module.js';
import { IterationsModule } from '../objects/versioned/iterations.module.js';
import { BlobSweeper } from './stores/blob-sweeper.js';
import { FileContent } from './file-content.js';
import { FilesController } from './files.controller.js';
import { FilesRepository } from './files.repository.js';
import { FilesService } from './files.service.js';
import { FilesZipService } from './files-zip.service.js';
import { TusLocksRepository } from './tus/tus-locks.repository.js';
import { TusPgLocker } from './tus/tus-pg-locker.js';
import { TusSweeper } from './tus/tus-sweeper.js';
import { TusUploadsController } from './tus/tus-uploads.controller.js';
import { TusUploadsRepository } from './tus/tus-uploads.repository.js';
import { TusUploadsService } from './tus/tus-uploads.service.js';

@Module({
  imports: [AuthModule, IterationsModule, ObjectsModule],
  // The tus routes first: /files/tus/<id> would otherwise be taken for /files/<number>/<filename>.
  controllers: [TusUploadsController, FilesController],
  providers: [
    Clock,
    FilesService,
    FilesZipService,
    FilesRepository,
    FileContent,
    BlobSweeper,
    TusUploadsService,
    TusUploadsRepository,
    TusLocksRepository,
    TusPgLocker,
    TusSweeper,
  ],
})
export class FilesModule {}
