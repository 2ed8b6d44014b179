import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ObjectsModule } from '../objects/objects.module.js';
import { IterationsModule } from '../objects/versioned/iterations.module.js';
import { BlobSweeper } from './stores/blob-sweeper.js';
import { FileContent } from './file-content.js';
import { FilesController } from './files.controller.js';
import { FilesRepository } from './files.repository.js';
import { FilesService } from './files.service.js';
import { FilesZipService } from './files-zip.service.js';

@Module({
  imports: [AuthModule, IterationsModule, ObjectsModule],
  controllers: [FilesController],
  providers: [FilesService, FilesZipService, FilesRepository, FileContent, BlobSweeper],
})
export class FilesModule {}
