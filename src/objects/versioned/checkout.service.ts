import { BadRequestException, ConflictException, ForbiddenException, Inject, Injectable } from '@nestjs/common';
import { recordAudit } from '../../audit/audit.repository.js';
import type { AuthUser } from '../../auth/auth-user.js';
import { accessFromRole } from '../../auth/permissions.service.js';
import { CatalogService } from '../../catalog/catalog.service.js';
import { parseVersionedRef, type ObjectRef } from '../../catalog/object-ref.js';
import { clip } from '../../common/clip.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { ObjectDto } from '../dto/object-response.dto.js';
import { PlainObjectsService } from '../plain/plain-objects.service.js';
import { heldBy } from './checkout-hold.js';
import { iterationLabel, lockForChange, noObject } from './object-access.js';
import { describeObject } from './object-answers.js';
import type { ObjectChangeTx } from './object-change.repository.js';
import { objectAudit } from './object-audit.js';
import type { ObjectRecord } from './object-records.repository.js';
import { linkRoles } from './object-changes.service.js';
import { ObjectsRepository } from './objects.repository.js';

/**
 * Check-out and check-in of documents, parts and CAD documents. A check-out makes a working copy
 * of the latest iteration (the next iteration number, never latest) that the holder's changes
 * go to; everyone else keeps reading, and may not change, the latest checked-in iteration. A
 * check-in makes the working copy the latest iteration (one new iteration for all the changes);
 * undoing the check-out deletes it. Each step is one transaction holding the master's lock,
 * with its audit event.
 */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly repo: ObjectsRepository,
    private readonly catalog: CatalogService,
    private readonly plain: PlainObjectsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Checks the object out to the caller (an author of it) and answers the working copy. */
  async checkout(user: AuthUser, text: string, type: string | undefined): Promise<ObjectDto> {
    const ref = await this.versionedRef(text, type);
    return this.repo.change(async (tx) => {
      const cur = await lockForChange(tx, user, ref, { latestOnly: true, holder: 'any' });
      if (cur.checkedOutById === user.id) {
        throw new ConflictException(
          `${cur.number} is checked out by you already; its working copy is the one you change`,
        );
      }
      if (cur.checkedOutById !== null) throw heldBy(cur.number, cur.checkedOutBy!);
      if (this.config.objectsReleasedStates.has(cur.state)) {
        throw new ConflictException(
          `${cur.number} ${iterationLabel(cur)} is ${cur.state}: a released object is not checked out; ` +
            `revise it first (POST /objects/<ref>/revisions makes the next version, in the lifecycle's first state)`,
        );
      }
      // The guard against a second check-out: the condition on the master's row, which this
      // transaction holds locked (lockForChange), so a check-out waiting for it sees this one.
      if (!(await tx.checkouts.claim(cur.masterId, user.id))) {
        throw new ConflictException(`${cur.number} was checked out meanwhile; nothing was changed`);
      }
      await tx.checkouts.makeWorkingCopy(cur.iterationId, user.id);
      const working = (await tx.findInMaster(cur.masterId, 'working', user.id))!;
      await this.audit(tx, user, 'objects.checkout', cur, {
        from: iterationLabel(cur),
        working: iterationLabel(working),
      });
      return describeObject(working);
    });
  }

  /** The holder's changes become the latest iteration, with `message` as its note. */
  async checkin(user: AuthUser, text: string, type: string | undefined, message: string | null): Promise<ObjectDto> {
    const ref = await this.versionedRef(text, type);
    return this.repo.change(async (tx) => {
      const cur = await lockForChange(tx, user, ref, { latestOnly: false, holder: 'any' });
      const working = await this.ownWorkingCopy(tx, user, cur);
      await tx.checkouts.checkIn(cur.masterId, working.iterationId, message, user.id);
      const after = (await tx.findInMaster(cur.masterId, 'latest', user.id))!;
      await this.audit(tx, user, 'objects.checkin', cur, {
        from: iterationLabel(cur),
        to: iterationLabel(after),
        message,
      });
      return describeObject(after);
    });
  }

  /**
   * Discards the working copy and checks the object in: the holder's own check-out, or (a manager
   * of the object's container or an administrator) another's, which breaks it. Answers the latest
   * iteration, as it was before the check-out.
   */
  async undo(user: AuthUser, text: string, type: string | undefined): Promise<ObjectDto> {
    const ref = await this.versionedRef(text, type);
    const roles = linkRoles(await this.catalog.current());
    return this.repo.change(async (tx) => {
      const cur = await lockForChange(tx, user, ref, { latestOnly: false, holder: 'any' });
      if (cur.checkedOutById === null) throw notCheckedOut(cur);
      const broken = cur.checkedOutById !== user.id;
      if (broken && accessFromRole(user, cur.memberRole) !== 'manage') {
        throw new ForbiddenException(
          `${cur.number} is checked out by ${cur.checkedOutBy}: undoing another user's check-out needs manager ` +
            `rights in container '${cur.containerName}' or an administrator`,
        );
      }
      const working = await tx.findInMaster(cur.masterId, 'working', cur.checkedOutById);
      await tx.checkouts.discard(cur.masterId, working?.iterationId ?? null, roles);
      const after = (await tx.findInMaster(cur.masterId, 'latest', user.id))!;
      await this.audit(tx, user, broken ? 'objects.break-checkout' : 'objects.undo-checkout', cur, {
        latest: iterationLabel(after),
        ...(working && { working: iterationLabel(working) }),
        holder: cur.checkedOutBy,
      });
      return describeObject(after);
    });
  }

  /**
   * The versioned object a reference names; 400 for a plain object (of a class that is not
   * versioned: it has no iterations to check out, and changes in place).
   */
  private async versionedRef(text: string, type: string | undefined): Promise<ObjectRef> {
    const plain = await this.plain.refOf(text, type);
    if (plain) {
      const cls = plain.kind === 'oid' ? plain.cls : type!;
      throw new BadRequestException(
        `${clip(text)} is a ${cls}, a class that is not versioned: only versioned objects (documents, parts, CAD ` +
          'documents, change objects …) are checked out; a plain object changes in place (PATCH /objects/<ref>)',
      );
    }
    return parseVersionedRef(await this.catalog.current(), text, type);
  }

  /** The caller's working copy of the object: 409 when it is not checked out, or checked out by another. */
  private async ownWorkingCopy(tx: ObjectChangeTx, user: AuthUser, cur: ObjectRecord): Promise<ObjectRecord> {
    if (cur.checkedOutById === null) throw notCheckedOut(cur);
    if (cur.checkedOutById !== user.id) throw heldBy(cur.number, cur.checkedOutBy!);
    const working = await tx.findInMaster(cur.masterId, 'working', user.id);
    if (!working) throw noObject(cur.number);
    return working;
  }

  private async audit(
    tx: ObjectChangeTx,
    user: AuthUser,
    action: string,
    o: ObjectRecord,
    detail: Record<string, unknown>,
  ): Promise<void> {
    await recordAudit(tx.audit, { ...objectAudit(user, action, o), detail });
  }
}

function notCheckedOut(o: ObjectRecord): ConflictException {
  return new ConflictException(`${o.number} is not checked out (POST /objects/${o.number}/checkout checks it out)`);
}
