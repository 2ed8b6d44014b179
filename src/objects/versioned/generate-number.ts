import { BadRequestException, ConflictException } from '@nestjs/common';
import { formatNumber } from '../../numbers/number-format.js';
import type { NumberedClass, Reservation } from '../../numbers/numbers.repository.js';
import { GENERATE } from '../dto/object-request.dto.js';
import type { ObjectChangeTx } from './object-change.repository.js';

/**
 * The next number of the container's rule for the class, reserved in the create's transaction;
 * `table`: where objects of the class keep their numbers (masters of versioned classes, objects
 * of plain ones).
 */
export async function generate(
  tx: ObjectChangeTx,
  container: { id: number; name: string },
  rule: NumberedClass,
): Promise<string> {
  return generatedNumber(container, rule.cls, await tx.reserveNumber(container.id, rule));
}

/**
 * The number a reservation of one number from the container's rule for `cls` handed out: 400
 * when the container has no rule for the class (no reservation), 409 when the rule had none left.
 */
export function generatedNumber(container: { name: string }, cls: string, r: Reservation | null): string {
  if (!r) {
    throw new BadRequestException(
      `number: container '${container.name}' has no numbering rule for ${cls}; give a number instead of ${GENERATE}`,
    );
  }
  if (!r.reserved) {
    throw new ConflictException(
      `number: the ${cls} rule of container '${container.name}' has no free number left up to ` +
        `${formatNumber(r, r.bound - 1n)} (width ${r.width}); nothing was created`,
    );
  }
  return formatNumber(r, r.start);
}
