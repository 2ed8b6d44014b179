import { ConflictException } from '@nestjs/common';

/**
 * Who holds a business object checked out, as the statement locking its master read it
 * (checkout.repository.ts): every service writing an object (objects, usage links, files, CAD
 * attributes) takes that lock first and asks checkoutGuard what the hold allows.
 */
export interface CheckoutHold {
  /** The holder's user id; null: checked in. */
  holderId: number | null;
  /** The holder's user name. */
  holder: string | null;
}

/**
 * What a change of a user may do given the hold: `free` (checked in: the change applies as it
 * always did), `holder` (the user holds it: the change goes to the working copy). Anyone else is
 * refused with 409 naming the holder.
 */
export function checkoutGuard(hold: CheckoutHold, userId: number, number: string): 'free' | 'holder' {
  if (hold.holderId === null) return 'free';
  if (hold.holderId === userId) return 'holder';
  throw heldBy(number, hold.holder ?? `user ${hold.holderId}`);
}

export function heldBy(number: string, holder: string): ConflictException {
  return new ConflictException(
    `${number} is checked out by ${holder}: only ${holder} may change it or its files until it is checked in ` +
      `(a manager of its container or an administrator may undo the check-out)`,
  );
}

/** The holder's own change that a working copy cannot take (a revision, a state change, a deletion). */
export function checkInFirst(number: string, what: string): ConflictException {
  return new ConflictException(
    `${number} is checked out by you: ${what} needs it checked in; check it in (POST /objects/${number}/checkin) ` +
      `or undo the check-out first`,
  );
}
