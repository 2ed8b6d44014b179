import type { Prisma } from '../generated/prisma/client.js';
import { OidClass } from '../catalog/oid.js';
import { DatasetError, type DatasetObject } from './dataset.js';

type Tx = Prisma.TransactionClient;

/** Marks the highest version.iteration of each master latest. */
export async function recomputeLatest(tx: Tx, masterIds: number[]): Promise<void> {
  if (!masterIds.length) return;
  // Two steps because at most one iteration per master may be latest at any time.
  await tx.$executeRaw`
    UPDATE iterations SET latest = false
    WHERE master_id = ANY(${masterIds}::int[]) AND latest`;
  await tx.$executeRaw`
    UPDATE iterations SET latest = true
    WHERE id IN (
      SELECT DISTINCT ON (master_id) id FROM iterations
      WHERE master_id = ANY(${masterIds}::int[])
      ORDER BY master_id, length(version) DESC, version DESC, iteration DESC)`;
}

/**
 * The usage links of a part or CAD assembly iteration (`uses`), added or updated; `stored` is
 * told of each. The iteration may then hold at most `maxLinks` (OBJECTS_MAX_LINKS) of them.
 */
export async function storeUses(
  tx: Tx,
  o: DatasetObject,
  parentId: number,
  maxLinks: number,
  stored: () => void,
): Promise<void> {
  const cls = o.class === OidClass.part ? OidClass.partUsageLink : OidClass.memberLink;
  for (const [j, u] of o.uses.entries()) {
    const child = await tx.master.findUnique({
      where: { cls_number: { cls: o.class, number: u.number } },
      select: { id: true },
    });
    if (!child) throw new DatasetError(`${o.path}.uses[${j}]: no ${o.class} with number "${u.number}"`);
    const lineNumber = u.lineNumber === null ? null : BigInt(u.lineNumber);
    const existing = await tx.usageLink.findFirst({
      where: { cls, parentId, childId: child.id, lineNumber },
      select: { id: true, quantity: true, unit: true },
    });
    const fields = { quantity: u.quantity, unit: u.unit };
    if (!existing) {
      // Made with the iteration: when the dataset says when that was, so was the link.
      const stamps = o.createdAt && { createdAt: o.createdAt, modifiedAt: o.createdAt };
      await tx.usageLink.create({ data: { cls, parentId, childId: child.id, ...fields, lineNumber, ...stamps } });
    } else if (existing.quantity !== fields.quantity || existing.unit !== fields.unit) {
      await tx.usageLink.update({ where: { id: existing.id }, data: { ...fields, modifiedAt: new Date() } });
    }
    stored();
  }
  if (o.uses.length === 0) return;
  const held = await tx.usageLink.count({ where: { parentId } });
  if (held > maxLinks) {
    throw new DatasetError(
      `${o.path}.uses: ${o.class} ${o.number} ${o.version}.${o.iteration} would hold ${held} usage links, more than ` +
        `one iteration may hold (OBJECTS_MAX_LINKS=${maxLinks})`,
    );
  }
}
