import { Injectable } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client.js';
import { NumbersService } from '../../numbers/numbers.service.js';
import { ObjectLocks } from '../../prisma/object-locks.js';
import { PrismaService } from '../../prisma/prisma.service.js';
import type { ObjectRef } from '../../catalog/object-ref.js';
import { CatalogRowsTx } from '../plain/catalog-rows.repository.js';
import { ObjectChangeTx } from './object-change.repository.js';
import {
  findByRef,
  findInMaster,
  recordSql,
  type IterationPick,
  type ObjectRecord,
  workingVisibleTo,
} from './object-records.repository.js';

/**
 * Masters, iterations and usage links of documents, parts and CAD documents as the objects
 * service reads and changes them. Changes run in one transaction (ObjectChangeTx).
 */
@Injectable()
export class ObjectsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly locks: ObjectLocks,
    private readonly numbers: NumbersService,
  ) {}

  findByRef(ref: ObjectRef, userId: number): Promise<ObjectRecord[]> {
    return findByRef(this.prisma, ref, userId);
  }

  findInMaster(masterId: number, pick: IterationPick, userId: number): Promise<ObjectRecord | null> {
    return findInMaster(this.prisma, masterId, pick, userId);
  }

  /** Every iteration of a master, oldest version first, then by iteration. */
  listIterations(masterId: number, userId: number): Promise<ObjectRecord[]> {
    return this.prisma.$queryRaw<ObjectRecord[]>(
      recordSql(
        userId,
        Prisma.sql`i.master_id = ${masterId} AND ${workingVisibleTo(userId)}`,
        Prisma.sql`ORDER BY length(i.version), i.version, i.iteration`,
      ),
    );
  }

  /** Reads of plain objects, catalog links and the records they name, outside a transaction. */
  rows(): CatalogRowsTx {
    return new CatalogRowsTx(this.prisma);
  }

  /**
   * Runs a change in one transaction; the callback gets the operations it may use. Its waits
   * for the locks of objects are bounded by DB_LOCK_TIMEOUT_MS (ObjectChangeTx.lockMaster).
   */
  change<T>(work: (tx: ObjectChangeTx) => Promise<T>): Promise<T> {
    return this.prisma.transaction(({ db }) => work(new ObjectChangeTx(db, this.locks.timeoutMs, this.numbers)));
  }
}
