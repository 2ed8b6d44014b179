import { Prisma, type MemberRole } from '../../generated/prisma/client.js';
import { boundLockWaits } from '../../prisma/object-locks.js';

/** A usage link of an iteration, with the master it uses and that master's latest iteration. */
export interface LinkRecord {
  id: number;
  cls: string;
  childId: number;
  quantity: number;
  unit: string;
  lineNumber: bigint | null;
  memberNumber: string;
  memberName: string;
  memberClass: string;
  memberIterationId: number | null;
  /** The caller's role in the member's container (null: not a member). */
  memberRole: MemberRole | null;
}

export interface LinkValues {
  quantity: number;
  unit: string;
  lineNumber: bigint | null;
}

/**
 * The usage links (part structure, CAD members) of an iteration, changed inside the caller's
 * transaction. Adding a link takes lockStructures first, so no two adds check for cycles at once.
 */
export class UsageLinksTx {
  constructor(
    private readonly tx: Prisma.TransactionClient,
    /** In a change of the service: DB_LOCK_TIMEOUT_MS, the longest lockStructures waits (503 past it). */
    private readonly lockTimeoutMs: number | null = null,
  ) {}

  /**
   * Serialises every change that could close a cycle (adding a link): two adds each checking
   * that the other's member does not contain its parent would both pass, and together make
   * A use B use A. Taken before the master's row lock, so lock order is always the same. The
   * import (no timeout) waits as long as it takes.
   */
  async lockStructures(): Promise<void> {
    // Without FROM, the WHERE is checked before the lock is taken.
    const bounded = this.lockTimeoutMs === null ? Prisma.sql`TRUE` : boundLockWaits(this.lockTimeoutMs);
    await this.tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('pdm.usage_structure')) WHERE ${bounded}`;
  }

  /** The links of an iteration, by line number (none last), member number, id. */
  list(iterationId: number, userId: number): Promise<LinkRecord[]> {
    return this.tx.$queryRaw<LinkRecord[]>`
      SELECT ul.id, ul.class AS cls, ul.child_id AS "childId", ul.quantity, ul.unit, ul.line_number AS "lineNumber",
             cm.number AS "memberNumber", cm.name AS "memberName", cm.class AS "memberClass",
             (SELECT li.id FROM iterations li WHERE li.master_id = cm.id AND li.latest) AS "memberIterationId",
             mb.role::text AS "memberRole"
      FROM usage_links ul JOIN masters cm ON cm.id = ul.child_id
      LEFT JOIN access_roles mb ON mb.container_id = cm.container_id AND mb.user_id = ${userId}
      WHERE ul.parent_id = ${iterationId}
      ORDER BY ul.line_number NULLS LAST, cm.number, ul.id`;
  }

  /**
   * Whether `target` is in the structure below `root` (root itself included), following the
   * latest iteration of every master as the structure service does.
   */
  async contains(root: number, target: number): Promise<boolean> {
    const [row] = await this.tx.$queryRaw<{ found: boolean }[]>`
      WITH RECURSIVE below (master_id) AS (
        SELECT ${root}::int
        UNION
        SELECT ul.child_id FROM below b
        JOIN iterations i ON i.master_id = b.master_id AND i.latest
        JOIN usage_links ul ON ul.parent_id = i.id
      )
      SELECT EXISTS (SELECT 1 FROM below WHERE master_id = ${target}) AS found`;
    return row.found;
  }

  async add(parentId: number, cls: string, childId: number, values: LinkValues): Promise<number> {
    const [row] = await this.tx.$queryRaw<{ id: number }[]>`
      INSERT INTO usage_links (class, parent_id, child_id, quantity, unit, line_number)
      VALUES (${cls}, ${parentId}, ${childId}, ${values.quantity}, ${values.unit}, ${values.lineNumber})
      RETURNING id`;
    return row.id;
  }

  async update(linkId: number, values: LinkValues): Promise<void> {
    await this.tx.$executeRaw`
      UPDATE usage_links SET quantity = ${values.quantity}, unit = ${values.unit}, line_number = ${values.lineNumber},
                             modified_at = now()
      WHERE id = ${linkId}`;
  }

  async remove(linkId: number): Promise<void> {
    await this.tx.$executeRaw`DELETE FROM usage_links WHERE id = ${linkId}`;
  }
}
