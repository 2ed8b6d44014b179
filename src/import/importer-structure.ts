import { OidClass } from '../catalog/oid.js';
import type { ObjectsImportService } from '../objects/objects-import.service.js';
import { DatasetError, type DatasetObject } from './dataset.js';

/**
 * The usage links of a part or CAD assembly iteration (`uses`), added or updated; `stored` is
 * told of each. The iteration may then hold at most `maxLinks` (OBJECTS_MAX_LINKS) of them.
 */
export async function storeUses(
  objects: ObjectsImportService,
  o: DatasetObject,
  parentId: number,
  maxLinks: number,
  stored: () => void,
): Promise<void> {
  const cls = o.class === OidClass.part ? OidClass.partUsageLink : OidClass.memberLink;
  for (const [j, u] of o.uses.entries()) {
    const childId = await objects.usedMasterId(o.class, u.number);
    if (childId === null) throw new DatasetError(`${o.path}.uses[${j}]: no ${o.class} with number "${u.number}"`);
    // Made with the iteration: when the dataset says when that was, so was the link.
    await objects.putUsageLink({
      cls,
      parentId,
      childId,
      quantity: u.quantity,
      unit: u.unit,
      lineNumber: u.lineNumber === null ? null : BigInt(u.lineNumber),
      createdAt: o.createdAt ?? null,
    });
    stored();
  }
  if (o.uses.length === 0) return;
  const held = await objects.countUsageLinks(parentId);
  if (held > maxLinks) {
    throw new DatasetError(
      `${o.path}.uses: ${o.class} ${o.number} ${o.version}.${o.iteration} would hold ${held} usage links, more than ` +
        `one iteration may hold (OBJECTS_MAX_LINKS=${maxLinks})`,
    );
  }
}
