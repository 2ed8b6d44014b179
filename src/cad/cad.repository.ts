import { Injectable } from '@nestjs/common';
import { type AuditEvent } from '../audit/audit-events.js';
import { auditViaPrisma, recordAudit } from '../audit/audit.repository.js';
import { latestOfBranchSql } from '../objects/versioned/iterations.repository.js';
import { Prisma, type MemberRole } from '../generated/prisma/client.js';
import { IterationsService } from '../objects/versioned/iterations.service.js';
import { ObjectLocks } from '../prisma/object-locks.js';
import type { CheckoutHold } from '../objects/versioned/checkout-hold.js';
import { holdOf, lockMasterText, WORKING_COPY_TEXT } from '../objects/versioned/checkout.repository.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { AttributeValue } from '../objects/versioned/attributes.js';
import type { CadRef } from './cad-params.js';
import { OidClass } from '../catalog/oid.js';

/** The link class of the CAD `used` relation. */
export const MEMBER_LINK = OidClass.memberLink;

/** Most links one answer carries; an assembly with more is answered with `truncated: true`. */
export const MAX_LINKS = 10_000;

/** An iteration named by an OID or number, with what addressing and permissions need of its master. */
export interface CadIteration {
  iterationId: number;
  masterId: number;
  cls: string;
  subtype: string | null;
  number: string;
  containerId: number;
  version: string;
  iteration: number;
  latest: boolean;
  /** Whether the iteration is the working copy of a check-out (its holder's alone). */
  working: boolean;
  /** Who holds the document checked out (null: checked in). */
  checkedOutById: number | null;
  attributes: Record<string, AttributeValue>;
}

export interface CadLink {
  id: number;
  memberIterationId: number | null;
  memberNumber: string;
  quantity: number;
  unit: string;
  lineNumber: bigint | null;
  referenceNumber: string | null;
  attributes: Record<string, AttributeValue>;
  /** The reader's role in the member's container (null: not a member of it). */
  memberRole: MemberRole | null;
}

/** Whose links are read: the member's container is looked up for them. */
export interface LinkReader {
  id: number;
  admin: boolean;
}

type Db = Prisma.TransactionClient | PrismaService;

async function findIteration(db: Db, ref: CadRef): Promise<CadIteration | null> {
  const where =
    ref.kind === 'iteration'
      ? Prisma.sql`i.id = ${ref.branch ? latestOfBranchSql(ref.id) : ref.id}`
      : Prisma.sql`m.class = ${OidClass.cadDocument} AND m.number = ${ref.text} AND i.latest`;
  const rows = await db.$queryRaw<CadIteration[]>`
    SELECT i.id AS "iterationId", m.id AS "masterId", m.class AS cls, m.subtype, m.number,
           m.container_id AS "containerId", i.version, i.iteration, i.latest, i.working,
           m.checked_out_by AS "checkedOutById", i.attributes
    FROM iterations i JOIN masters m ON m.id = i.master_id
    WHERE ${where}`;
  return rows[0] ?? null;
}

/**
 * The links of an iteration's used relation, with the reader's role in each member's container,
 * in the statement that lists them. A member the reader may not read is ordered as one without a
 * number (as structure orders it), so its place among the others does not tell its number.
 */
async function listLinks(db: Db, iterationId: number, reader: LinkReader, limit = MAX_LINKS): Promise<CadLink[]> {
  return db.$queryRaw<CadLink[]>`
    SELECT ul.id, (SELECT li.id FROM iterations li WHERE li.master_id = cm.id AND li.latest) AS "memberIterationId",
           cm.number AS "memberNumber", ul.quantity, ul.unit, ul.line_number AS "lineNumber",
           ul.reference_number AS "referenceNumber", ul.attributes, mb.role::text AS "memberRole"
    FROM usage_links ul JOIN masters cm ON cm.id = ul.child_id
    LEFT JOIN access_roles mb ON mb.container_id = cm.container_id AND mb.user_id = ${reader.id}
    WHERE ul.parent_id = ${iterationId} AND ul.class = ${MEMBER_LINK}
    ORDER BY ul.line_number NULLS LAST,
             CASE WHEN ${reader.admin}::boolean OR mb.role IS NOT NULL THEN cm.number END NULLS FIRST, ul.id
    LIMIT ${limit}`;
}

/** CAD documents' attributes and the links of their `used` relation. */
@Injectable()
export class CadRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly locks: ObjectLocks,
    private readonly iterations: IterationsService,
  ) {}

  findIteration(ref: CadRef): Promise<CadIteration | null> {
    return findIteration(this.prisma, ref);
  }

  /** The links of the iteration's used relation, one more than MAX_LINKS at most (to tell truncation). */
  links(iterationId: number, reader: LinkReader): Promise<CadLink[]> {
    return listLinks(this.prisma, iterationId, reader, MAX_LINKS + 1);
  }

  /**
   * Runs a change of the document of master `masterId` in one transaction, once the changes of
   * that master before it on this instance have ended (ObjectLocks: waiting holds no connection).
   */
  change<T>(masterId: number, work: (tx: CadChangeTx) => Promise<T>): Promise<T> {
    return this.locks.inTurn(masterId, () =>
      this.prisma.transaction(({ db }) => work(new CadChangeTx(db, this.locks.timeoutMs, this.iterations))),
    );
  }
}

/** The steps of a change of a CAD document, inside the caller's transaction. */
export class CadChangeTx {
  constructor(
    private readonly tx: Prisma.TransactionClient,
    /** DB_LOCK_TIMEOUT_MS: the longest the change waits for a lock. */
    private readonly lockTimeoutMs: number,
    private readonly iterations: IterationsService,
  ) {}

  /**
   * Serialises changes of one CAD document (its attributes, iterations, the line numbers of its
   * links) with each other and with the file service's changes, which take the same lock: what
   * is read after this is what the change applies to. Waits at most DB_LOCK_TIMEOUT_MS (503).
   * Answers who holds the document checked out, as every change of an object reads it
   * (checkout.repository.ts).
   */
  async lockMaster(masterId: number): Promise<CheckoutHold> {
    return holdOf(
      await this.tx.$queryRawUnsafe<CheckoutHold[]>(lockMasterText(), masterId, String(this.lockTimeoutMs)),
    );
  }

  /** The working copy of the document's check-out, read under its lock. */
  async workingCopyId(masterId: number): Promise<number | null> {
    return (await this.tx.$queryRawUnsafe<{ id: number }[]>(WORKING_COPY_TEXT, masterId))[0]?.id ?? null;
  }

  findIteration(ref: CadRef): Promise<CadIteration | null> {
    return findIteration(this.tx, ref);
  }

  links(iterationId: number, reader: LinkReader): Promise<CadLink[]> {
    return listLinks(this.tx, iterationId, reader);
  }

  /**
   * Makes the next iteration of `fromId` (same version, next iteration number) and moves
   * `latest` to it, as the file service does: attributes, title, description, state, files and
   * links (with their line numbers, reference numbers and attributes) are carried over (see
   * newIteration).
   */
  async newIteration(
    fromId: number,
    userId: number,
    note: string | null,
    released: ReadonlySet<string>,
  ): Promise<{ id: number; iteration: number }> {
    const created = await this.iterations.newIteration(this.tx, fromId, { userId, note, released });
    return { id: created.id, iteration: created.iteration };
  }

  /** Records the change's audit event, in its transaction. */
  async audit(event: AuditEvent): Promise<void> {
    await recordAudit(auditViaPrisma(this.tx), event);
  }

  /** Stores the iteration's attributes and who changed it when; the note when one is given. */
  async saveAttributes(
    iterationId: number,
    attributes: Record<string, AttributeValue>,
    userId: number,
    note: string | null,
  ): Promise<void> {
    await this.tx.iteration.update({
      where: { id: iterationId },
      data: {
        attributes,
        modifiedById: userId,
        modifiedAt: new Date(),
        ...(note !== null && { note }),
      },
    });
  }

  async touchIteration(iterationId: number, userId: number): Promise<void> {
    await this.tx.iteration.update({
      where: { id: iterationId },
      data: { modifiedById: userId, modifiedAt: new Date() },
    });
  }

  async saveLink(
    linkId: number,
    change: { lineNumber: bigint | null; referenceNumber: string | null; attributes: Record<string, AttributeValue> },
  ): Promise<void> {
    await this.tx.usageLink.update({ where: { id: linkId }, data: { ...change, modifiedAt: new Date() } });
  }

  /**
   * Sets the line numbers of links, [link id, number] pairs, in one statement; with
   * `onlyMissing`, only on links that still have none.
   */
  async setLineNumbers(pairs: [number, bigint][], onlyMissing: boolean): Promise<void> {
    if (!pairs.length) return;
    const ids = pairs.map(([id]) => id);
    const numbers = pairs.map(([, n]) => n.toString());
    await this.tx.$executeRaw`
      UPDATE usage_links u SET line_number = v.n, modified_at = now()
      FROM unnest(${ids}::int[], ${numbers}::bigint[]) AS v(id, n)
      WHERE u.id = v.id AND (u.line_number IS NULL OR NOT ${onlyMissing})`;
  }
}
