import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import type { AuditEvent, AuditSql } from '../audit/audit-events.js';
import { recordAudit } from '../audit/audit.repository.js';
import { Prisma, type MemberRole } from '../generated/prisma/client.js';
import { IterationsService } from '../objects/versioned/iterations.service.js';
import { ObjectLocks } from '../prisma/object-locks.js';
import type { CheckoutHold } from '../objects/versioned/checkout-hold.js';
import { holdOf, lockMasterText, WORKING_COPY_TEXT } from '../objects/versioned/checkout.repository.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { ReadReplica } from '../prisma/read-replica.js';
import {
  findHolder,
  holderForUserQuery,
  holderLookup,
  type ChangeSql,
  type HolderRow,
} from './file-holders.repository.js';

/** An iteration that holds files, with what addressing and permissions need of its master. */
export interface HolderRecord {
  iterationId: number;
  masterId: number;
  cls: string;
  number: string;
  version: string;
  iteration: number;
  latest: boolean;
  containerId: number;
  containerName: string;
  /**
   * The version of the iteration's row (its xmin: the transaction that last wrote it). Every
   * change of an iteration's files writes its row in the same transaction (touchIteration, a new
   * iteration, the importer's upsert), so the same stamp on a replica means the same files.
   */
  stamp: string;
  /** Whether the iteration is the working copy of a check-out (its holder's alone). */
  working: boolean;
  /** Who holds the object checked out (null: checked in): only they change its files. */
  checkedOutById: number | null;
  checkedOutBy: string | null;
}

export interface ContentItemRecord {
  id: number;
  role: string;
  fileName: string;
  mimeType: string;
  size: number;
  sha256: string;
}

export interface NewContentItem {
  role: string;
  mimeType: string;
  size: number;
  sha256: string;
  message: string;
}

/** Which iteration: one by id, or the latest of a master (by class and number, or by id). */
export type HolderKey =
  | { kind: 'iteration'; id: number }
  /** the latest iteration of the version whose branch id this is (a VR: reference) */
  | { kind: 'branch'; id: number }
  | { kind: 'number'; cls: string; number: string }
  | { kind: 'master'; id: number };

/** A holder and, when a file name was asked for, that file (null when it has none of the name). */
export interface HolderLookup {
  holder: HolderRecord;
  item: ContentItemRecord | null;
}

/** A holder looked up for a caller, with the caller's membership role in its container. */
export interface HolderForUser extends HolderLookup {
  memberRole: MemberRole | null;
}

/**
 * A listing on the replica: the iteration's items there, provided the replica's row of the
 * iteration carries the stamp the primary showed ($2). No row: the replica does not show that
 * version (it lags, or a change came after the look-up); one row without an item: no files.
 */
const LIST_ON_REPLICA = {
  name: 'files-list-replica',
  text: `SELECT ci.id, ci.role, ci.file_name, ci.mime_type, ci.size::text AS size, ci.sha256
    FROM iterations i
    LEFT JOIN content_items ci ON ci.iteration_id = i.id AND ($3::text IS NULL OR ci.role = $3::text)
    WHERE i.id = $1::int4 AND i.xmin::text = $2::text
    ORDER BY ci.role, ci.file_name`,
};

interface ReplicaItemRow {
  id: number | null;
  role: string;
  file_name: string;
  mime_type: string;
  size: string;
  sha256: string;
}

/** A listed file as the service names it. */
function itemOf(r: ReplicaItemRow): ContentItemRecord {
  return {
    id: r.id!,
    role: r.role,
    fileName: r.file_name,
    mimeType: r.mime_type,
    size: Number(r.size),
    sha256: r.sha256,
  };
}

const ITEM_SELECT = {
  id: true,
  role: true,
  fileName: true,
  mimeType: true,
  size: true,
  sha256: true,
} satisfies Prisma.ContentItemSelect;

type Db = Prisma.TransactionClient;

/**
 * The statements of file changes on the pg pool are prepared once per connection (named by
 * their text: the same name means the same text in every connection), so that PostgreSQL does
 * not parse and plan them anew for every upload.
 */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `files-change-${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

const viaPg =
  (db: pg.Pool | pg.ClientBase): ChangeSql =>
  async <R>(text: string, values: unknown[]) =>
    (await db.query({ name: statementName(text), text, values })).rows as R[];

/** The content items, iterations and roles the file service reads and writes. */
@Injectable()
export class FilesRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly replica: ReadReplica,
    private readonly locks: ObjectLocks,
    private readonly iterations: IterationsService,
  ) {}

  findHolder(key: HolderKey, fileName: string | null = null): Promise<HolderLookup | null> {
    return findHolder(viaPg(this.prisma.pgPool), key, fileName);
  }

  /**
   * findHolder and the caller's membership in the holder's container in one round trip, on the
   * pool under Prisma with a prepared statement: reads (downloads, lists) run it on every
   * request, where Prisma's per-query cost was the larger part of a small download.
   */
  async findHolderFor(key: HolderKey, fileName: string | null, userId: number): Promise<HolderForUser | null> {
    const keyValues = key.kind === 'number' ? [key.cls, key.number] : [key.id, null];
    const res = await this.prisma.pgPool.query<HolderRow & { member_role: MemberRole | null }>({
      ...holderForUserQuery(key.kind),
      values: [...keyValues, fileName, userId],
    });
    const row = res.rows[0];
    return row ? { ...holderLookup(row, fileName), memberRole: row.member_role } : null;
  }

  async roleNames(): Promise<string[]> {
    const rows = await this.prisma.contentRole.findMany({ select: { name: true }, orderBy: { name: 'asc' } });
    return rows.map((r) => r.name);
  }

  /**
   * The files of an iteration (of one role, or all), ordered by role and name. With a replica
   * (DATABASE_REPLICA_URL), read there when the replica shows the iteration with the stamp the
   * primary's look-up returned, so exactly the files the primary had then (a file the caller has
   * just uploaded among them); otherwise, or when the replica cannot answer, on the primary.
   */
  listItems(holder: Pick<HolderRecord, 'iterationId' | 'stamp'>, role: string | null): Promise<ContentItemRecord[]> {
    return this.replica.read(
      (pool) => this.listItemsOnReplica(pool, holder, role),
      () => this.listItemsOnPrimary(holder.iterationId, role),
    );
  }

  private async listItemsOnPrimary(iterationId: number, role: string | null): Promise<ContentItemRecord[]> {
    const rows = await this.prisma.contentItem.findMany({
      where: { iterationId, ...(role !== null && { role }) },
      select: ITEM_SELECT,
      orderBy: [{ role: 'asc' }, { fileName: 'asc' }],
    });
    return rows.map((row) => ({ ...row, size: Number(row.size) }));
  }

  /**
   * The files of an iteration (of one role, or all) read on the replica, ordered by role and name;
   * undefined when the replica does not show the iteration with the stamp the primary returned.
   */
  private async listItemsOnReplica(
    pool: pg.Pool,
    holder: Pick<HolderRecord, 'iterationId' | 'stamp'>,
    role: string | null,
  ): Promise<ContentItemRecord[] | undefined> {
    const { rows } = await pool.query<ReplicaItemRow>({
      ...LIST_ON_REPLICA,
      values: [holder.iterationId, holder.stamp, role],
    });
    if (rows.length === 0) return undefined;
    if (rows[0].id === null) return [];
    return rows.map(itemOf);
  }

  /**
   * The files of several iterations (of one role, or all), ordered by iteration as given, then
   * role and name: what a ZIP collection holds, read in one statement on the primary.
   */
  async itemsOf(iterationIds: number[], role: string | null): Promise<(ContentItemRecord & { iterationId: number })[]> {
    const { rows } = await this.prisma.pgPool.query<ReplicaItemRow & { iteration_id: number }>({
      name: 'files-items-of',
      text: `SELECT ci.iteration_id, ci.id, ci.role, ci.file_name, ci.mime_type, ci.size::text AS size, ci.sha256
        FROM unnest($1::int4[]) WITH ORDINALITY AS w(iteration_id, ord)
        JOIN content_items ci ON ci.iteration_id = w.iteration_id AND ($2::text IS NULL OR ci.role = $2::text)
        ORDER BY w.ord, ci.role, ci.file_name`,
      values: [iterationIds, role],
    });
    return rows.map((r) => ({ iterationId: r.iteration_id, ...itemOf(r) }));
  }

  /**
   * Runs a file change in one transaction; the callback gets the operations it may use. Its
   * statements run on the transaction's connection as prepared statements (through Prisma, each
   * of them cost a millisecond of CPU, more than half the time of a small upload); a new
   * iteration is made through the objects' service in the same transaction. The change of master
   * `masterId` waits for those before it on this instance first (ObjectLocks: waiting holds no
   * connection).
   */
  async change<T>(masterId: number, work: (tx: FileChangeTx) => Promise<T>): Promise<T> {
    return this.locks.inTurn(masterId, () =>
      this.prisma.transaction((tx) => {
        const sql = viaPg(tx.client);
        return work(new FileChangeTx(sql, sql, tx.db, this.locks.timeoutMs, this.iterations));
      }),
    );
  }
}

/** The steps of a file change, all inside the caller's transaction. */
export class FileChangeTx {
  constructor(
    private readonly sql: ChangeSql,
    private readonly auditSql: AuditSql,
    /** The database handle, in the change's transaction. */
    private readonly db: Db,
    /** DB_LOCK_TIMEOUT_MS: the longest the change waits for a lock. */
    private readonly lockTimeoutMs: number,
    private readonly iterations: IterationsService,
  ) {}

  /**
   * Serialises changes to one business object's files and iterations: the holder, its latest
   * flag and the item read after this are what the change applies to. NO KEY UPDATE leaves
   * rows that merely reference the master (new iterations) unblocked. Waits at most
   * DB_LOCK_TIMEOUT_MS (503). Answers who holds the object checked out, as every change of an
   * object reads it (checkout.repository.ts).
   */
  async lockMaster(masterId: number): Promise<CheckoutHold> {
    return holdOf(await this.sql<CheckoutHold>(lockMasterText(), [masterId, String(this.lockTimeoutMs)]));
  }

  /** The working copy of the master's check-out, read under its lock. */
  async workingCopyId(masterId: number): Promise<number | null> {
    return (await this.sql<{ id: number }>(WORKING_COPY_TEXT, [masterId]))[0]?.id ?? null;
  }

  findHolder(key: HolderKey, fileName: string | null = null): Promise<HolderLookup | null> {
    return findHolder(this.sql, key, fileName);
  }

  /**
   * Makes the next iteration of `from` (same version, next free iteration number) and moves
   * `latest` to it, with its attributes, title, description, state, files and usage links (see
   * newIteration). Returns the new iteration's id and number.
   */
  async newIteration(
    from: HolderRecord,
    userId: number,
    released: ReadonlySet<string>,
  ): Promise<{ id: number; iteration: number }> {
    const created = await this.iterations.newIteration(this.db, from.iterationId, { userId, released });
    return { id: created.id, iteration: created.iteration };
  }

  /** Records the change's audit event, in its transaction. */
  async audit(event: AuditEvent): Promise<void> {
    await recordAudit(this.auditSql, event);
  }

  /** Records who changed the iteration and when. */
  async touchIteration(iterationId: number, userId: number): Promise<void> {
    await this.sql('UPDATE iterations SET modified_by = $2::int4, modified_at = now() WHERE id = $1::int4', [
      iterationId,
      userId,
    ]);
  }

  async createItem(iterationId: number, fileName: string, item: NewContentItem): Promise<number> {
    return this.itemId(
      this.sql(
        `INSERT INTO content_items (iteration_id, file_name, role, mime_type, size, sha256, message)
         VALUES ($1::int4, $2::text, $3::text, $4::text, $5::int8, $6::text, $7::text) RETURNING id`,
        [iterationId, fileName, ...itemValues(item)],
      ),
    );
  }

  /** Replaces the content of the item named `fileName` in the iteration; returns its id. */
  async updateItem(iterationId: number, fileName: string, item: NewContentItem): Promise<number> {
    return this.itemId(
      this.sql(
        `UPDATE content_items SET role = $3::text, mime_type = $4::text, size = $5::int8, sha256 = $6::text,
           message = $7::text, modified_at = now()
         WHERE iteration_id = $1::int4 AND file_name = $2::text RETURNING id`,
        [iterationId, fileName, ...itemValues(item)],
      ),
    );
  }

  /** Deletes the item named `fileName` in the iteration; returns its id. */
  async deleteItem(iterationId: number, fileName: string): Promise<number> {
    return this.itemId(
      this.sql('DELETE FROM content_items WHERE iteration_id = $1::int4 AND file_name = $2::text RETURNING id', [
        iterationId,
        fileName,
      ]),
    );
  }

  /** The id a statement on one item returned; the item is there, as the change checked under its lock. */
  private async itemId(statement: Promise<{ id: number }[]>): Promise<number> {
    const rows = await statement;
    if (!rows[0]) throw new Error('the content item the change read under its lock is gone');
    return rows[0].id;
  }
}

function itemValues(item: NewContentItem): unknown[] {
  return [item.role, item.mimeType, String(item.size), item.sha256, item.message];
}

/** Content roles and content items as the dataset import writes them, in the caller's transaction. */
@Injectable()
export class ImportedContentRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Adds the roles not there yet. */
  async addRoles(names: string[]): Promise<void> {
    await this.prisma.contentRole.createMany({ data: names.map((name) => ({ name })), skipDuplicates: true });
  }

  /** Creates or updates an iteration's file by name; modified_at moves when its bytes changed. */
  async putItem(iterationId: number, fileName: string, item: Omit<NewContentItem, 'message'>): Promise<void> {
    const existing = await this.prisma.contentItem.findUnique({
      where: { iterationId_fileName: { iterationId, fileName } },
      select: { id: true, sha256: true },
    });
    const content = { role: item.role, mimeType: item.mimeType, size: item.size, sha256: item.sha256 };
    if (!existing) {
      await this.prisma.contentItem.create({ data: { iterationId, fileName, ...content } });
    } else {
      await this.prisma.contentItem.update({
        where: { id: existing.id },
        data: { ...content, ...(existing.sha256 !== item.sha256 && { modifiedAt: new Date() }) },
      });
    }
  }
}
