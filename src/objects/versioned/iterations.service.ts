import { Injectable } from '@nestjs/common';
import type { Prisma } from '../../generated/prisma/client.js';
import { newIteration, type IterationStart, type NewIteration } from './iterations.repository.js';

/** New iterations of versioned objects, for the modules that change them in their own transactions. */
@Injectable()
export class IterationsService {
  /**
   * Makes a new iteration from iteration `fromId` in the caller's transaction (see newIteration):
   * the files service's and the CAD service's `iterate=true`. The caller holds the master's row
   * lock and records its own audit event.
   */
  newIteration(tx: Prisma.TransactionClient, fromId: number, start: IterationStart): Promise<NewIteration> {
    return newIteration(tx, fromId, start);
  }
}
