import { BadRequestException, ConflictException, ForbiddenException, NotFoundException } from '@nestjs/common';
import type { AuthUser } from '../../auth/auth-user.js';
import { accessFromRole } from '../../auth/permissions.service.js';
import { formatOid } from '../../catalog/oid.js';
import type { MemberRole } from '../../generated/prisma/client.js';
import { clip } from '../../common/clip.js';
import type { ObjectChangeTx } from './object-change.repository.js';
import type { ObjectRef } from '../../catalog/object-ref.js';
import type { ObjectRecord } from './object-records.repository.js';
import { checkInFirst, checkoutGuard } from './checkout-hold.js';

/**
 * What a change does when its own caller holds the object checked out: `working` (the change
 * goes to the working copy: new iterations, usage links, attributes), `refuse` with what the
 * change is (a revision, a state change, a deletion need the object checked in), `any` (the
 * check-out service's own steps, which look at the hold themselves).
 */
export type HolderChange = 'working' | 'any' | { refuse: string };

/**
 * Who may do what with a business object: readers of its container read it, authors and
 * managers (and administrators) change it; an object the caller may not read is answered 404,
 * exactly like one that does not exist.
 */

export function mayRead(user: AuthUser, role: MemberRole | null): boolean {
  return accessFromRole(user, role) !== 'none';
}

export function mayWrite(user: AuthUser, role: MemberRole | null): boolean {
  const access = accessFromRole(user, role);
  return access === 'write' || access === 'manage';
}

export function noObject(text: string): NotFoundException {
  return new NotFoundException(`no object "${clip(text)}"`);
}

/** The one object of `found` the caller may read; unreadable ones do not exist. */
export function pickReadable(user: AuthUser, text: string, found: ObjectRecord[]): ObjectRecord {
  const visible = found.filter((r) => mayRead(user, r.memberRole));
  if (visible.length === 0) throw noObject(text);
  if (visible.length > 1) {
    throw new BadRequestException(
      `several objects carry the number "${clip(text)}" (${visible.map((r) => r.cls).join(', ')}): give type`,
    );
  }
  return visible[0];
}

export const iterationLabel = (r: { version: string; iteration: number }) => `${r.version}.${r.iteration}`;

/**
 * The object a change names, inside the change's transaction, with its master locked: its
 * latest iteration as committed now. 404 when the caller may not read it, 403 when they may only
 * read it; with `latestOnly`, 409 when the reference is the OID of an older iteration (older
 * iterations are read-only, as in the file service). An object another user holds checked out
 * is refused with 409 naming them; one the caller holds answers its working copy (`holder`).
 */
export async function lockForChange(
  tx: ObjectChangeTx,
  user: AuthUser,
  ref: ObjectRef,
  opts: { latestOnly: boolean; forDelete?: boolean; holder?: HolderChange } = { latestOnly: true },
): Promise<ObjectRecord> {
  const found = pickReadable(user, ref.text, await tx.findByRef(ref, user.id));
  if (!mayWrite(user, found.memberRole)) {
    throw new ForbiddenException(
      `changing ${found.number} needs author or manager rights in container '${found.containerName}'; you may only read there`,
    );
  }
  const hold = await tx.lockMaster(found.masterId, opts.forDelete ?? false);
  const holder = opts.holder ?? 'working';
  if (holder !== 'any' && checkoutGuard(hold, user.id, found.number) === 'holder') {
    if (typeof holder === 'object') throw checkInFirst(found.number, holder.refuse);
    const working = await tx.findInMaster(found.masterId, 'working', user.id);
    if (!working) throw noObject(ref.text);
    return working;
  }
  // Read again under the lock: a change committed meanwhile may have made a new iteration.
  const latest = await tx.findInMaster(found.masterId, 'latest', user.id);
  if (!latest) throw noObject(ref.text);
  if (opts.latestOnly && ref.kind === 'oid' && latest.iterationId !== found.iterationId) {
    throw new ConflictException(
      `${ref.text} is iteration ${iterationLabel(found)} of ${found.number}, not the latest ` +
        `(${iterationLabel(latest)}, ${formatOid(latest.cls, latest.iterationId)}): only the latest iteration can be changed`,
    );
  }
  return latest;
}
