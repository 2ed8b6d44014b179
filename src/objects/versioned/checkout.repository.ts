import { Prisma } from '../../generated/prisma/client.js';
import { boundLockWaitsPg } from '../../prisma/object-locks.js';
import type { CheckoutHold } from './checkout-hold.js';
import type { LinkRoles } from './object-change.repository.js';

/**
 * The statement every change of a business object starts with: it locks the master's row
 * ($1 the master id, $2 DB_LOCK_TIMEOUT_MS as text) and reads who holds the object checked out,
 * from the row as locked (a check-out committed while the change waited is seen). The objects,
 * usage links, files and CAD services all run it, so none writes past a check-out of another.
 * NO KEY UPDATE leaves rows that merely reference the master unblocked; a deletion takes FOR
 * UPDATE instead (see ObjectChangeTx.lockMaster).
 */
export function lockMasterText(forDelete = false): string {
  // The name by a subquery, not a join: when the lock waited for a change of the row, PostgreSQL
  // reads the row again as committed, and a subquery (not a joined row) follows its new holder.
  return `SELECT m.checked_out_by AS "holderId", (SELECT u.name FROM users u WHERE u.id = m.checked_out_by) AS holder
    FROM masters m
    WHERE m.id = $1::int4 AND ${boundLockWaitsPg(2)} FOR ${forDelete ? 'UPDATE' : 'NO KEY UPDATE'} OF m`;
}

/** The hold the lock statement read; a master that is gone reads as checked in. */
export function holdOf(rows: CheckoutHold[]): CheckoutHold {
  return rows[0] ?? { holderId: null, holder: null };
}

/** The working copy of a master, read after its lock: committed by the check-out, so a new statement sees it. */
export const WORKING_COPY_TEXT = 'SELECT id FROM iterations WHERE master_id = $1::int4 AND working';

/**
 * Check-out, check-in and undo of a check-out, in the caller's transaction holding the master's
 * lock (ObjectChangeTx.lockMaster).
 */
export class CheckoutTx {
  constructor(private readonly tx: Prisma.TransactionClient) {}

  async workingCopyId(masterId: number): Promise<number | null> {
    const rows = await this.tx.$queryRawUnsafe<{ id: number }[]>(WORKING_COPY_TEXT, masterId);
    return rows[0]?.id ?? null;
  }

  /**
   * Marks the master checked out by `userId`, provided no one holds it: the condition is the
   * guard against a second check-out (false: someone does, nothing changed).
   */
  async claim(masterId: number, userId: number): Promise<boolean> {
    const n = await this.tx.$executeRaw`
      UPDATE masters SET checked_out_by = ${userId}, checked_out_at = now()
      WHERE id = ${masterId} AND checked_out_by IS NULL`;
    return n === 1;
  }

  /**
   * The working copy of iteration `fromId`: the next iteration number of its version, never
   * latest, with its attributes, files and usage links copied (rows pointing at the same blobs
   * and masters). At most one per master (iterations_one_working_per_master).
   */
  async makeWorkingCopy(fromId: number, userId: number): Promise<number> {
    const [created] = await this.tx.$queryRaw<{ id: number }[]>`
      INSERT INTO iterations (master_id, version, iteration, latest, working, state, title, description, attributes,
                              note, created_by, modified_by, created_at, modified_at)
      SELECT i.master_id, i.version,
             (SELECT max(o.iteration) + 1 FROM iterations o WHERE o.master_id = i.master_id AND o.version = i.version),
             false, true, i.state, i.title, i.description, i.attributes, NULL, ${userId}, ${userId}, now(), now()
      FROM iterations i WHERE i.id = ${fromId}
      RETURNING id`;
    await this.tx.$executeRaw`
      INSERT INTO content_items (iteration_id, role, file_name, mime_type, size, sha256, message, created_at, modified_at)
      SELECT ${created.id}, role, file_name, mime_type, size, sha256, message, created_at, modified_at
      FROM content_items WHERE iteration_id = ${fromId} ORDER BY id`;
    await this.tx.$executeRaw`
      INSERT INTO usage_links (class, parent_id, child_id, quantity, unit, line_number, reference_number, attributes)
      SELECT class, ${created.id}, child_id, quantity, unit, line_number, reference_number, attributes
      FROM usage_links WHERE parent_id = ${fromId} ORDER BY id`;
    return created.id;
  }

  /**
   * The working copy becomes the latest iteration, with the check-in comment as its note, and the
   * master is checked in: the changes made while checked out are one new iteration.
   */
  async checkIn(masterId: number, workingId: number, note: string | null, userId: number): Promise<void> {
    // The old flag goes first: at most one latest iteration per master (partial unique index).
    await this.tx.$executeRaw`UPDATE iterations SET latest = false WHERE master_id = ${masterId} AND latest`;
    await this.tx.$executeRaw`
      UPDATE iterations SET latest = true, working = false, note = ${note}::text, modified_by = ${userId},
                            modified_at = now()
      WHERE id = ${workingId}`;
    await this.release(masterId);
  }

  /**
   * Deletes the working copy (its files and usage links cascade) with the catalog links naming it
   * (`roles`: the link classes keeping an iteration's id in role A or B; made by the holder while
   * checked out, they would name nothing after), and checks the master in.
   */
  async discard(masterId: number, workingId: number | null, roles: LinkRoles): Promise<void> {
    if (workingId !== null) {
      await this.tx.$executeRaw`
        DELETE FROM links
        WHERE (class = ANY(${roles.iterationA}::text[]) AND role_a_id = ${workingId})
           OR (class = ANY(${roles.iterationB}::text[]) AND role_b_id = ${workingId})`;
      await this.tx.$executeRaw`DELETE FROM iterations WHERE id = ${workingId} AND working`;
    }
    await this.release(masterId);
  }

  private async release(masterId: number): Promise<void> {
    await this.tx.$executeRaw`UPDATE masters SET checked_out_by = NULL, checked_out_at = NULL WHERE id = ${masterId}`;
  }
}
