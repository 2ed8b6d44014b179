import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';
import { ImportedContentRepository, type NewContentItem } from './files.repository.js';
import { putBlob } from './stores/blob-chunks.repository.js';

/**
 * The files module's writes for the dataset import (src/import): content roles, content items
 * and, with FILES_STORE=postgres, their bytes, in the caller's transaction (PrismaService.transaction).
 */
@Injectable()
export class ContentImportService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly content: ImportedContentRepository,
  ) {}

  addRoles(names: string[]): Promise<void> {
    return this.content.addRoles(names);
  }

  putItem(iterationId: number, fileName: string, item: Omit<NewContentItem, 'message'>): Promise<void> {
    return this.content.putItem(iterationId, fileName, item);
  }

  /** Stores bytes in PostgreSQL (content_blobs, blob_chunks) unless they are there already. */
  putBlob(bytes: Buffer): Promise<{ sha256: string; size: number }> {
    return putBlob(this.prisma, bytes);
  }
}
