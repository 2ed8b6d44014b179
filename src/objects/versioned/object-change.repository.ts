import { Prisma, type MemberRole } from '../../generated/prisma/client.js';
import { auditViaPrisma } from '../../audit/audit.repository.js';
import type { AuditSql } from '../../audit/audit-events.js';
import type { AttributeValue } from './attributes.js';
import {
  RESERVATION_COLUMNS,
  reservationCtes,
  type NumberedClass,
  type Reservation,
} from '../../numbers/numbers.repository.js';
import type { NumbersService } from '../../numbers/numbers.service.js';
import { CheckoutTx, holdOf, lockMasterText } from './checkout.repository.js';
import type { CheckoutHold } from './checkout-hold.js';
import { newIteration, type IterationStart, type NewIteration } from './iterations.repository.js';
import type { ObjectRef } from '../../catalog/object-ref.js';
import {
  findByRef,
  findInMaster,
  recordSql,
  type IterationPick,
  type ObjectRecord,
  type RecordSources,
} from './object-records.repository.js';
import { CatalogRowsTx } from '../plain/catalog-rows.repository.js';
import { ObjectReferencesTx } from '../links/object-references.repository.js';
import { UsageLinksTx } from '../structure/usage-links.repository.js';

export interface ContainerForUser {
  id: number;
  name: string;
  cls: string;
  role: MemberRole | null;
}

export interface NewObject {
  cls: string;
  softType: string | null;
  subtype: string | null;
  number: string;
  name: string;
  containerId: number;
  state: string;
  title: string | null;
  description: string | null;
  note: string | null;
  attributes: Record<string, AttributeValue>;
  userId: number;
}

/** A usage link of another object's iteration naming a master, with what permissions need of it. */
export interface UsingLink {
  linkId: number;
  parentNumber: string;
  parentClass: string;
  version: string;
  iteration: number;
  containerId: number;
  memberRole: MemberRole | null;
  /** Who holds the using object checked out (null: no one), as committed now. */
  holderId: number | null;
  holder: string | null;
}

/** Which catalog link classes keep an iteration's or a master's id in role A or B (see deleteObject). */
export interface LinkRoles {
  iterationA: string[];
  iterationB: string[];
  masterA: string[];
  masterB: string[];
}

export interface DeletedCounts {
  iterations: number;
  files: number;
  links: number;
}

/** The rows a creation statement inserts, read back as recordSql reads the tables. */
const CREATED: RecordSources = { iterations: Prisma.sql`new_iteration`, masters: Prisma.sql`new_master` };

/**
 * `new_master` and `new_iteration`: the master with `number` (an expression over `source`, the
 * FROM and WHERE its row is selected with) and its iteration A.1. A number the class has
 * already inserts neither. Values are cast: in INSERT … SELECT they take no type from the columns.
 */
function creationCtes(o: Omit<NewObject, 'number'>, number: Prisma.Sql, source: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    new_master AS (
      INSERT INTO masters (class, subtype, soft_type, number, name, container_id)
      SELECT ${o.cls}::text, ${o.subtype}::text, ${o.softType}::text, ${number}, ${o.name}::text, ${o.containerId}::int
      ${source}
      ON CONFLICT (class, number) DO NOTHING
      RETURNING *
    ),
    new_iteration AS (
      INSERT INTO iterations (master_id, version, iteration, latest, state, title, description, attributes, note,
                              created_by, modified_by)
      SELECT id, 'A', 1, true, ${o.state}::text, ${o.title}::text, ${o.description}::text,
             ${JSON.stringify(o.attributes)}::jsonb, ${o.note}::text, ${o.userId}::int, ${o.userId}::int
      FROM new_master
      RETURNING *
    )`;
}

/** The steps of a change of business objects, all inside the caller's transaction. */
export class ObjectChangeTx {
  readonly links: UsageLinksTx;
  /** Plain objects, catalog links and the records they name. */
  readonly rows: CatalogRowsTx;
  /** References plain objects keep in their JSON. */
  readonly refs: ObjectReferencesTx;
  /** Check-out, check-in and undo. */
  readonly checkouts: CheckoutTx;

  constructor(
    private readonly tx: Prisma.TransactionClient,
    /** DB_LOCK_TIMEOUT_MS: the longest the change waits for the lock of an object (503 past it). */
    private readonly lockTimeoutMs: number,
    /** Reserves generated numbers in this transaction. */
    private readonly numbers: NumbersService,
  ) {
    this.links = new UsageLinksTx(tx, lockTimeoutMs);
    this.rows = new CatalogRowsTx(tx, lockTimeoutMs);
    this.refs = new ObjectReferencesTx(tx);
    this.checkouts = new CheckoutTx(tx);
  }

  /** For recordAudit, in this transaction. */
  get audit(): AuditSql {
    return auditViaPrisma(this.tx);
  }

  /**
   * Serialises changes of one business object (its iterations, state, links, files): what is
   * read after this is what the change applies to. The files and numbers services take the
   * same lock. NO KEY UPDATE leaves rows that merely reference the master unblocked; a
   * deletion takes FOR UPDATE instead, so a usage link being added to the object (whose foreign
   * key check holds the master's KEY SHARE lock) is committed, and counted, before it looks.
   * From here on, no lock wait of the change is longer than DB_LOCK_TIMEOUT_MS (503). Answers
   * who holds the object checked out (checkoutGuard says what that allows).
   */
  async lockMaster(masterId: number, forDelete = false): Promise<CheckoutHold> {
    const text = lockMasterText(forDelete);
    return holdOf(await this.tx.$queryRawUnsafe<CheckoutHold[]>(text, masterId, String(this.lockTimeoutMs)));
  }

  findByRef(ref: ObjectRef, userId: number): Promise<ObjectRecord[]> {
    return findByRef(this.tx, ref, userId);
  }

  findInMaster(masterId: number, pick: IterationPick, userId: number): Promise<ObjectRecord | null> {
    return findInMaster(this.tx, masterId, pick, userId);
  }

  async findContainer(name: string, userId: number): Promise<ContainerForUser | null> {
    const rows = await this.tx.$queryRaw<ContainerForUser[]>`
      SELECT c.id, c.name, c.class AS cls, mb.role::text AS role
      FROM containers c LEFT JOIN access_roles mb ON mb.container_id = c.id AND mb.user_id = ${userId}
      WHERE c.name = ${name}`;
    return rows[0] ?? null;
  }

  /** One number of the container's rule for the class, held until this transaction ends. */
  reserveNumber(containerId: number, rule: NumberedClass): Promise<Reservation | null> {
    return this.numbers.reserveIn(this.tx, containerId, rule, 1);
  }

  /**
   * The master and its first iteration, made and read back (as the caller sees them) in one
   * statement; null when the class already has an object with that number (committed, or
   * committed meanwhile by a create this one waited for on the unique key).
   */
  async createObject(o: NewObject): Promise<ObjectRecord | null> {
    const rows = await this.tx.$queryRaw<ObjectRecord[]>`
      WITH ${creationCtes(o, Prisma.sql`${o.number}::text`, Prisma.empty)}
      ${recordSql(o.userId, Prisma.sql`true`, Prisma.empty, CREATED)}`;
    return rows[0] ?? null;
  }

  /**
   * The same with the next number of the container's rule for `rule`, reserved by the number
   * service's reservation (reservationCtes) in the same statement. The rule's row stays locked
   * until this transaction ends (one statement, the audit event and the commit of a create), and
   * a rollback gives the number back. `reservation` is null when the container has no rule for
   * the class; `created` is null when the run did not fit (not `reserved`) or when the number
   * was taken meanwhile, as for createObject.
   */
  async createNumberedObject(
    o: Omit<NewObject, 'number'>,
    rule: NumberedClass,
  ): Promise<{ reservation: Reservation | null; created: ObjectRecord | null }> {
    const number = Prisma.sql`p.prefix || lpad(p.start::text, p.width, '0') || p.suffix`;
    const rows = await this.tx.$queryRaw<(Reservation & Partial<ObjectRecord>)[]>`
      WITH ${reservationCtes(o.containerId, rule, 1)},
      ${creationCtes(o, number, Prisma.sql`FROM placed p WHERE p.start + p.wanted <= p.bound`)}
      SELECT ${RESERVATION_COLUMNS}, created.*
      FROM placed p
      LEFT JOIN (${recordSql(o.userId, Prisma.sql`true`, Prisma.empty, CREATED)}) created ON true`;
    if (!rows[0]) return { reservation: null, created: null };
    const { start, bound, prefix, suffix, width, reserved, ...record } = rows[0];
    return {
      reservation: { start, bound, prefix, suffix, width, reserved },
      created: record.iterationId == null ? null : (record as ObjectRecord),
    };
  }

  newIteration(fromId: number, start: IterationStart): Promise<NewIteration> {
    return newIteration(this.tx, fromId, start);
  }

  /** Sets the given fields of an iteration (undefined: left alone) and who changed it when. */
  async changeIteration(
    iterationId: number,
    change: {
      title?: string | null;
      description?: string | null;
      attributes?: Record<string, AttributeValue>;
      note?: string | null;
      state?: string;
    },
    userId: number,
  ): Promise<void> {
    await this.tx.iteration.update({
      where: { id: iterationId },
      data: { ...change, modifiedById: userId, modifiedAt: new Date() },
    });
  }

  /** A new name for the master (every iteration shows it): its modifyStamp moves with it. */
  async renameMaster(masterId: number, name: string): Promise<void> {
    await this.tx.$executeRaw`UPDATE masters SET name = ${name}, modified_at = now() WHERE id = ${masterId}`;
  }

  /** The highest version the master has (B over A, AA over Z). */
  async highestVersion(masterId: number): Promise<string> {
    const rows = await this.tx.$queryRaw<{ version: string }[]>`
      SELECT version FROM iterations WHERE master_id = ${masterId}
      ORDER BY length(version) DESC, version DESC LIMIT 1`;
    return rows[0].version;
  }

  /**
   * The usage links of other objects' iterations (any, not only the latest) that use the master,
   * with who holds each using object checked out. Read, not locked: a deletion holding the
   * master FOR UPDATE would deadlock with a usage link being added to one of them (which holds
   * it and waits for the master's KEY SHARE). A check-out of one still in progress copies its
   * usage links, and so waits for that KEY SHARE: it comes after the deletion.
   */
  usersOf(masterId: number, userId: number): Promise<UsingLink[]> {
    return this.tx.$queryRaw<UsingLink[]>`
      SELECT ul.id AS "linkId", pm.number AS "parentNumber", pm.class AS "parentClass", pi.version, pi.iteration,
             pm.container_id AS "containerId", mb.role::text AS "memberRole", pm.checked_out_by AS "holderId",
             (SELECT u.name FROM users u WHERE u.id = pm.checked_out_by) AS holder
      FROM usage_links ul
      JOIN iterations pi ON pi.id = ul.parent_id
      JOIN masters pm ON pm.id = pi.master_id
      LEFT JOIN access_roles mb ON mb.container_id = pm.container_id AND mb.user_id = ${userId}
      WHERE ul.child_id = ${masterId} AND pm.id <> ${masterId}
      ORDER BY pm.number, pi.version, pi.iteration, ul.id`;
  }

  /**
   * Deletes the master with its iterations, their content items and usage links (cascading),
   * the usage links naming it, and the catalog links (change objects' affected data, described-by
   * links …) whose role keeps the id of one of its iterations or of the master itself. File bytes
   * no other file uses are left to the sweeper.
   */
  async deleteObject(masterId: number, roles: LinkRoles): Promise<DeletedCounts> {
    const [counts] = await this.tx.$queryRaw<{ iterations: number; files: number }[]>`
      SELECT count(*)::int AS iterations,
             (SELECT count(*)::int FROM content_items ci JOIN iterations i ON i.id = ci.iteration_id
              WHERE i.master_id = ${masterId}) AS files
      FROM iterations WHERE master_id = ${masterId}`;
    const links = await this.tx.$executeRaw`
      WITH its AS (SELECT array_agg(id) AS ids FROM iterations WHERE master_id = ${masterId})
      DELETE FROM links l USING its
      WHERE (l.class = ANY(${roles.iterationA}::text[]) AND l.role_a_id = ANY(its.ids))
         OR (l.class = ANY(${roles.iterationB}::text[]) AND l.role_b_id = ANY(its.ids))
         OR (l.class = ANY(${roles.masterA}::text[]) AND l.role_a_id = ${masterId})
         OR (l.class = ANY(${roles.masterB}::text[]) AND l.role_b_id = ${masterId})`;
    await this.tx.$executeRaw`DELETE FROM masters WHERE id = ${masterId}`;
    return { ...counts, links };
  }
}
