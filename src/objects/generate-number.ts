import { BadRequestException, ConflictException } from '@nestjs/common';
import { formatNumber } from '../numbers/number-format.js';
import type { NumberedClass } from '../numbers/numbers.repository.js';
import { GENERATE } from './dto/object-request.dto.js';
import type { ObjectChangeTx } from './object-change.tx.js';

/** The next number of the container's rule for the class, reserved in the create's transaction. */
export async function generate(
  tx: ObjectChangeTx,
  container: { id: number; name: string },
  rule: NumberedClass,
): Promise<string> {
  const cls = rule.cls;
  const r = await tx.reserveNumber(container.id, rule);
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
