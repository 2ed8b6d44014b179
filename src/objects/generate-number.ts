import { BadRequestException, ConflictException } from '@nestjs/common';
import { formatNumber } from '../numbers/number-format.js';
import type { NumberedTable } from '../numbers/numbers.repository.js';
import { GENERATE } from './dto/object-request.dto.js';
import type { ObjectChangeTx } from './object-change.tx.js';

/**
 * The next number of the container's rule for the class, reserved in the create's transaction;
 * `table`: where objects of the class keep their numbers (masters of versioned classes, objects
 * of plain ones).
 */
export async function generate(
  tx: ObjectChangeTx,
  container: { id: number; name: string },
  cls: string,
  table: NumberedTable,
): Promise<string> {
  const r = await tx.reserveNumber(container.id, cls, table);
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
