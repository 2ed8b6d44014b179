import { Injectable } from '@nestjs/common';
import {
  ImportedLinksRepository,
  type ImportedLink,
  type NamedRecord,
  type NamedStorage,
} from './links/imported-links.repository.js';
import { ImportedPlainRepository, type ImportedPlain } from './plain/imported-plain.repository.js';
import { ImportedUsageLinksRepository, type ImportedUsageLink } from './structure/imported-usage-links.repository.js';
import {
  ImportedObjectsRepository,
  type ImportedIteration,
  type ImportedMaster,
  type MasterFields,
} from './versioned/imported-objects.repository.js';

export type {
  ImportedLink,
  NamedRecord,
  NamedStorage,
  ImportedPlain,
  ImportedUsageLink,
  ImportedIteration,
  ImportedMaster,
  MasterFields,
};

/**
 * The objects module's writes for the dataset import (src/import): masters, iterations, plain
 * objects, catalog links and usage links, matched by their natural keys. Each runs in the
 * caller's transaction (PrismaService.transaction); the import's rules (what a dataset may say,
 * its messages) stay with the import.
 */
@Injectable()
export class ObjectsImportService {
  constructor(
    private readonly objects: ImportedObjectsRepository,
    private readonly plain: ImportedPlainRepository,
    private readonly links: ImportedLinksRepository,
    private readonly usageLinks: ImportedUsageLinksRepository,
  ) {}

  /** The master (locked until the import ends) with who holds it checked out. */
  findMaster(cls: string, number: string): Promise<(ImportedMaster & { holder: string | null }) | null> {
    return this.objects.findMaster(cls, number);
  }

  createMaster(cls: string, number: string, fields: MasterFields): Promise<number> {
    return this.objects.createMaster(cls, number, fields);
  }

  /** Changes a master's fields; its modifyStamp moves. */
  updateMaster(id: number, fields: MasterFields): Promise<void> {
    return this.objects.updateMaster(id, fields);
  }

  putIteration(iteration: ImportedIteration): Promise<number> {
    return this.objects.putIteration(iteration);
  }

  recomputeLatest(masterIds: number[]): Promise<void> {
    return this.objects.recomputeLatest(masterIds);
  }

  /** Masters the import made take their stamps from their first and last iterations. */
  stampCreatedMasters(masterIds: number[]): Promise<void> {
    return this.objects.stampFromIterations(masterIds);
  }

  mergeMasterAttributes(masterId: number, values: Record<string, unknown>): Promise<void> {
    return this.objects.mergeMasterAttributes(masterId, values);
  }

  mergeIterationAttributes(iterationId: number, values: Record<string, unknown>): Promise<void> {
    return this.objects.mergeIterationAttributes(iterationId, values);
  }

  putPlain(o: ImportedPlain): Promise<number> {
    return this.plain.put(o);
  }

  mergePlainProps(id: number, values: Record<string, unknown>): Promise<void> {
    return this.plain.mergeProps(id, values);
  }

  putLink(l: ImportedLink): Promise<void> {
    return this.links.put(l);
  }

  /** The number of a versioned record (iteration or master) and who holds it checked out; held until the import ends. */
  holderOf(storage: 'iteration' | 'master', id: number): Promise<{ number: string; holder: string | null } | null> {
    return this.links.holderOf(storage, id);
  }

  /** The records a dataset's reference names (see ImportedLinksRepository.find). */
  findNamed(storage: NamedStorage, classes: string[], key: string): Promise<NamedRecord[]> {
    return this.links.find(storage, classes, key);
  }

  classesNamed(key: string): Promise<string[]> {
    return this.links.classesNamed(key);
  }

  /** Takes the lock /objects adds usage links under, before any row lock. */
  lockStructures(): Promise<void> {
    return this.usageLinks.lockStructures();
  }

  usedMasterId(cls: string, number: string): Promise<number | null> {
    return this.usageLinks.masterId(cls, number);
  }

  putUsageLink(l: ImportedUsageLink): Promise<void> {
    return this.usageLinks.put(l);
  }

  countUsageLinks(parentId: number): Promise<number> {
    return this.usageLinks.count(parentId);
  }
}
