import { ConflictException } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client.js';

/** What makes the new iteration differ from the one it is made from. */
export interface IterationStart {
  /** Who makes it: its creator and modifier. */
  userId: number;
  /** The check-in comment kept as its note; none by default. */
  note?: string | null;
  /**
   * A new version (revision): the new iteration is iteration 1 of it. Without one, the next
   * iteration of the same version.
   */
  version?: string;
  /** Its lifecycle state; by default the state of the iteration it is made from. */
  state?: string;
  /**
   * States whose iterations get no further iteration of the same version (OBJECTS_RELEASED_STATES):
   * a released object is revised instead. Not checked for a new version.
   */
  released: ReadonlySet<string>;
}

export interface NewIteration {
  id: number;
  version: string;
  iteration: number;
  /** The usage links carried over: old link id → the id of its copy in the new iteration. */
  links: Map<number, number>;
}

/**
 * Makes a new iteration of a business object from iteration `fromId` and moves `latest` to it:
 * the next iteration of the same version or, with `start.version`, iteration 1 of a new
 * version. Title, description, attributes and state are copied (the state unless another is
 * given); content items and usage links are carried over as new rows pointing at the same blobs
 * and masters, so no bytes are copied; link ids change, and the answer maps old to new.
 *
 * The one implementation of "new iteration" of the files, numbers and objects services. The
 * caller runs it in its own transaction holding the master's row lock (lockMaster), and records
 * its own audit event: this function records none.
 */
export async function newIteration(
  tx: Prisma.TransactionClient,
  fromId: number,
  start: IterationStart,
): Promise<NewIteration> {
  if (start.version === undefined && start.released.size > 0) {
    const [from] = await tx.$queryRaw<{ number: string; version: string; iteration: number; state: string }[]>`
      SELECT m.number, i.version, i.iteration, i.state FROM iterations i JOIN masters m ON m.id = i.master_id
      WHERE i.id = ${fromId}`;
    if (from && start.released.has(from.state)) {
      throw new ConflictException(
        `${from.number} ${from.version}.${from.iteration} is ${from.state}: a released object gets no new iteration; ` +
          `revise it first (POST /objects/<ref>/revisions makes the next version, in the lifecycle's first state)`,
      );
    }
  }
  // The old flag goes first: at most one latest iteration per master (partial unique index).
  await tx.$executeRaw`UPDATE iterations SET latest = false WHERE id = ${fromId}`;
  const version = start.version ?? null;
  const [created] = await tx.$queryRaw<{ id: number; version: string; iteration: number }[]>`
    INSERT INTO iterations (master_id, version, iteration, latest, state, title, description, attributes, note,
                            created_by, modified_by, created_at, modified_at)
    SELECT i.master_id, COALESCE(${version}::text, i.version),
           CASE WHEN ${version}::text IS NULL
                THEN (SELECT max(o.iteration) + 1 FROM iterations o WHERE o.master_id = i.master_id AND o.version = i.version)
                ELSE 1 END,
           true, COALESCE(${start.state ?? null}::text, i.state), i.title, i.description, i.attributes,
           ${start.note ?? null}::text, ${start.userId}, ${start.userId}, now(), now()
    FROM iterations i WHERE i.id = ${fromId}
    RETURNING id, version, iteration`;
  await tx.$executeRaw`
    INSERT INTO content_items (iteration_id, role, file_name, mime_type, size, sha256, message, created_at, modified_at)
    SELECT ${created.id}, role, file_name, mime_type, size, sha256, message, created_at, modified_at
    FROM content_items WHERE iteration_id = ${fromId} ORDER BY id`;
  // The copies' ids are drawn first, so that the answer can say which copy is which link's.
  const pairs = await tx.$queryRaw<{ old_id: number; new_id: number }[]>`
    WITH src AS (
      SELECT id AS old_id, nextval(pg_get_serial_sequence('usage_links', 'id'))::int AS new_id
      FROM (SELECT id FROM usage_links WHERE parent_id = ${fromId} ORDER BY id) o
    ), copied AS (
      INSERT INTO usage_links (id, class, parent_id, child_id, quantity, unit, line_number, reference_number, attributes)
      SELECT s.new_id, ul.class, ${created.id}, ul.child_id, ul.quantity, ul.unit, ul.line_number,
             ul.reference_number, ul.attributes
      FROM src s JOIN usage_links ul ON ul.id = s.old_id
      ORDER BY s.new_id
    )
    SELECT old_id, new_id FROM src`;
  return {
    id: created.id,
    version: created.version,
    iteration: created.iteration,
    links: new Map(pairs.map((p) => [p.old_id, p.new_id])),
  };
}

/**
 * The id of the latest iteration of the version whose branch id is given, which a version
 * reference (`VR:<class>:<branch id>`, common/version-ref.ts) stands for (no row: no such
 * version, or an id that is not a version's first iteration). For `WHERE i.id = (…)`.
 */
export function latestOfBranchSql(branchId: number): Prisma.Sql {
  return Prisma.sql`(
    SELECT l.id FROM iterations b
    JOIN iterations l ON l.master_id = b.master_id AND l.version = b.version
    WHERE b.id = ${branchId} AND NOT l.working
      AND b.id = (SELECT min(c.id) FROM iterations c WHERE c.master_id = b.master_id AND c.version = b.version)
    ORDER BY l.iteration DESC LIMIT 1)`;
}

/** The same as SQL text with the branch id as the parameter `param` (`$1`), for prepared statements. */
export function latestOfBranchText(param: string): string {
  return `(SELECT l.id FROM iterations b JOIN iterations l ON l.master_id = b.master_id AND l.version = b.version
    WHERE b.id = ${param} AND NOT l.working
      AND b.id = (SELECT min(c.id) FROM iterations c WHERE c.master_id = b.master_id AND c.version = b.version)
    ORDER BY l.iteration DESC LIMIT 1)`;
}
