import { AdminImportService } from '../admin/admin-import.service.js';
import { AdminContainersRepository } from '../admin/containers.repository.js';
import { AdminRulesRepository } from '../admin/rules.repository.js';
import { AdminWorkspacesRepository } from '../admin/workspaces.repository.js';
import { AuditImportService } from '../audit/audit-import.service.js';
import { UsersRepository } from '../auth/users.repository.js';
import { CatalogTypesService } from '../catalog/catalog-types.service.js';
import { CatalogRepository } from '../catalog/catalog.repository.js';
import { ContentImportService } from '../files/content-import.service.js';
import { ImportedContentRepository } from '../files/files.repository.js';
import { ImportedLinksRepository } from '../objects/links/imported-links.repository.js';
import { ObjectsImportService } from '../objects/objects-import.service.js';
import { ImportedPlainRepository } from '../objects/plain/imported-plain.repository.js';
import { ImportedUsageLinksRepository } from '../objects/structure/imported-usage-links.repository.js';
import { ImportedObjectsRepository } from '../objects/versioned/imported-objects.repository.js';
import type { PrismaService } from '../prisma/prisma.service.js';
import { ReportTemplatesRepository } from '../reports/report-templates.repository.js';
import { ReportTemplatesService } from '../reports/report-templates.service.js';

/** The services of the modules whose tables the import writes: every statement of the import goes through them. */
export interface ImportServices {
  catalog: CatalogTypesService;
  admin: AdminImportService;
  objects: ObjectsImportService;
  content: ContentImportService;
  reports: ReportTemplatesService;
  audit: AuditImportService;
}

/**
 * The import's services on the handle `prisma`, made here rather than by a Nest application
 * context: the import is a script with a database URL, and these services need nothing but the
 * handle, whereas the modules that offer them start the catalog, the stores, the batcher and
 * the rest of the service. Made on a transaction's handle (`tx.db`), they run in that transaction.
 */
export function importServices(prisma: PrismaService): ImportServices {
  return {
    catalog: new CatalogTypesService(new CatalogRepository(prisma)),
    admin: new AdminImportService(
      new UsersRepository(prisma),
      new AdminContainersRepository(prisma),
      new AdminRulesRepository(prisma),
      new AdminWorkspacesRepository(prisma),
    ),
    objects: new ObjectsImportService(
      new ImportedObjectsRepository(prisma),
      new ImportedPlainRepository(prisma),
      new ImportedLinksRepository(prisma),
      new ImportedUsageLinksRepository(prisma),
    ),
    content: new ContentImportService(prisma, new ImportedContentRepository(prisma)),
    reports: new ReportTemplatesService(new ReportTemplatesRepository(prisma)),
    audit: new AuditImportService(prisma),
  };
}
