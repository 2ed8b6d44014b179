import { Prisma, type MemberRole } from '../../generated/prisma/client.js';
import type { StorageKind } from '../../catalog/storage.js';
import { boundLockWaits } from '../../prisma/object-locks.js';
import { workingVisibleTo, type Db } from '../versioned/object-records.repository.js';
import { MASTER_SUFFIX, OidClass } from '../../catalog/standard-classes.js';
import type { CheckoutHold } from '../versioned/checkout-hold.js';

/**
 * The rows of the catalog's generic storages as /objects reads and changes them: plain objects
 * (`objects`: views, workflow processes, organisations …), links of catalog link classes
 * (`links`), and the ends a link or a reference names, in whichever table their class keeps
 * them (iterations, masters, objects, users, containers). Runs on the pool for reads and inside
 * the caller's transaction for changes.
 */

/** A plain object with its container and the caller's role there. */
export interface PlainRecord {
  id: number;
  cls: string;
  softType: string | null;
  number: string | null;
  name: string | null;
  state: string | null;
  containerId: number | null;
  containerName: string | null;
  containerClass: string | null;
  props: Record<string, unknown>;
  createdBy: string | null;
  modifiedBy: string | null;
  createdAt: Date;
  modifiedAt: Date;
  memberRole: MemberRole | null;
}

/** A record a link's role or a reference names, in the table of its class's storage. */
export interface EndRecord {
  /** The class of its OID (a master's: `<class>Master`). */
  cls: string;
  id: number;
  number: string | null;
  name: string | null;
  /** The container whose readers read it; null: every signed-in user (users, plain objects without one). */
  containerId: number | null;
  memberRole: MemberRole | null;
}

export interface LinkRecord {
  id: number;
  cls: string;
  softType: string | null;
  roleAId: number;
  roleBId: number;
  containerId: number | null;
  containerName: string | null;
  containerClass: string | null;
  props: Record<string, unknown>;
  createdAt: Date;
  modifiedAt: Date;
  memberRole: MemberRole | null;
}

/** A link with both its ends, as a page of an object's links reads them (an end: null when gone). */
export interface LinkWithEnds extends LinkRecord {
  a: EndRecord | null;
  b: EndRecord | null;
}

/** A versioned object checked out by another user than the one changing. */
export interface HeldObject {
  number: string;
  holder: string;
}

const FREE: CheckoutHold = { holderId: null, holder: null };

/** For each side of a link, the link classes whose role class on that side is kept in each nameable storage. */
export type EndStorages = Record<'a' | 'b', Partial<Record<StorageKind, string[]>>>;

/** Links whose role A (or B) is of one of `classes` and keeps one of `ids`. */
export interface LinkSide {
  side: 'a' | 'b';
  classes: string[];
  ids: number[];
}

export interface NewPlain {
  cls: string;
  softType: string | null;
  number: string | null;
  name: string;
  state: string | null;
  containerId: number | null;
  props: Record<string, unknown>;
  userId: number;
}

/** How an end is looked for: by id (with its OID's class, or null: any), or by number or name among classes. */
export type EndKey = { id: number; cls: string | null } | { key: string; classes: readonly string[] };

const PLAIN = (userId: number, where: Prisma.Sql) => Prisma.sql`
  SELECT o.id, o.class AS cls, o.soft_type AS "softType", o.number, o.name, o.state, o.container_id AS "containerId",
         c.name AS "containerName", c.class AS "containerClass", o.props, cu.name AS "createdBy",
         mu.name AS "modifiedBy", o.created_at AS "createdAt", o.modified_at AS "modifiedAt", mb.role::text AS "memberRole"
  FROM objects o
  LEFT JOIN containers c ON c.id = o.container_id
  LEFT JOIN users cu ON cu.id = o.created_by
  LEFT JOIN users mu ON mu.id = o.modified_by
  LEFT JOIN access_roles mb ON mb.container_id = o.container_id AND mb.user_id = ${userId}
  WHERE ${where}
  ORDER BY o.class, o.id LIMIT 10`;

export class CatalogRowsTx {
  constructor(
    private readonly db: Db,
    /** In a change: DB_LOCK_TIMEOUT_MS, the longest lockPlain waits (503 past it). */
    private readonly lockTimeoutMs: number | null = null,
  ) {}

  /** Plain objects by id (of one class) or by number among classes. */
  findPlain(key: { id: number; cls: string } | { number: string; classes: readonly string[] }, userId: number) {
    const where =
      'id' in key
        ? Prisma.sql`o.id = ${key.id} AND o.class = ${key.cls}`
        : Prisma.sql`o.number = ${key.number} AND o.class = ANY(${[...key.classes]}::text[])`;
    return this.db.$queryRaw<PlainRecord[]>(PLAIN(userId, where));
  }

  /** Locks a plain object's row for a change (FOR UPDATE: a link naming it waits, and is counted). */
  async lockPlain(id: number): Promise<void> {
    const bounded = this.lockTimeoutMs === null ? Prisma.sql`TRUE` : boundLockWaits(this.lockTimeoutMs);
    await this.db.$queryRaw`SELECT id FROM objects WHERE id = ${id} AND ${bounded} FOR UPDATE`;
  }

  /** The new object's id; null when its class has an object with that number already. */
  async createPlain(o: NewPlain): Promise<number | null> {
    const rows = await this.db.$queryRaw<{ id: number }[]>`
      INSERT INTO objects (class, soft_type, number, name, state, container_id, created_by, modified_by, props)
      VALUES (${o.cls}, ${o.softType}, ${o.number}, ${o.name}, ${o.state}, ${o.containerId}, ${o.userId}, ${o.userId},
              ${JSON.stringify(o.props)}::jsonb)
      ON CONFLICT (class, number) DO NOTHING
      RETURNING id`;
    return rows[0]?.id ?? null;
  }

  async updatePlain(
    id: number,
    change: { name: string | null; state: string | null; props: Record<string, unknown> },
    userId: number,
  ): Promise<void> {
    await this.db.$executeRaw`
      UPDATE objects SET name = ${change.name}, state = ${change.state}, props = ${JSON.stringify(change.props)}::jsonb,
                         modified_by = ${userId}, modified_at = now()
      WHERE id = ${id}`;
  }

  async deletePlain(id: number): Promise<void> {
    await this.db.$executeRaw`DELETE FROM objects WHERE id = ${id}`;
  }

  /** The ids of every iteration of a master (links of iteration roles keep one of them). */
  async iterationIds(masterId: number): Promise<number[]> {
    const rows = await this.db.$queryRaw<{ id: number }[]>`SELECT id FROM iterations WHERE master_id = ${masterId}`;
    return rows.map((r) => r.id);
  }

  /** The ids of the iterations of a master `userId` sees: a working copy only when they hold it. */
  async visibleIterationIds(masterId: number, userId: number): Promise<number[]> {
    const rows = await this.db.$queryRaw<{ id: number }[]>`
      SELECT i.id FROM iterations i JOIN masters m ON m.id = i.master_id
      WHERE i.master_id = ${masterId} AND ${workingVisibleTo(userId)}`;
    return rows.map((r) => r.id);
  }

  /** Records of a storage a role or reference names; [] for storages that cannot be named. */
  findEnds(storage: StorageKind, key: EndKey, userId: number): Promise<EndRecord[]> {
    const role = (containerColumn: Prisma.Sql) => Prisma.sql`
      (SELECT mb.role::text FROM access_roles mb WHERE mb.container_id = ${containerColumn} AND mb.user_id = ${userId})`;
    switch (storage) {
      case 'iteration': {
        const where =
          'id' in key
            ? Prisma.sql`i.id = ${key.id} AND (${key.cls}::text IS NULL OR m.class = ${key.cls})
                         AND ${workingVisibleTo(userId)}`
            : Prisma.sql`m.number = ${key.key} AND m.class = ANY(${[...key.classes]}::text[]) AND i.latest`;
        return this.db.$queryRaw<EndRecord[]>`
          SELECT m.class AS cls, i.id, m.number, m.name, m.container_id AS "containerId",
                 ${role(Prisma.sql`m.container_id`)} AS "memberRole"
          FROM iterations i JOIN masters m ON m.id = i.master_id WHERE ${where} LIMIT 10`;
      }
      case 'master': {
        const where =
          'id' in key
            ? Prisma.sql`m.id = ${key.id} AND (${key.cls}::text IS NULL OR m.class || ${MASTER_SUFFIX}::text = ${key.cls})`
            : Prisma.sql`m.number = ${key.key} AND m.class = ANY(${[...key.classes]}::text[])`;
        return this.db.$queryRaw<EndRecord[]>`
          SELECT m.class || ${MASTER_SUFFIX}::text AS cls, m.id, m.number, m.name, m.container_id AS "containerId",
                 ${role(Prisma.sql`m.container_id`)} AS "memberRole"
          FROM masters m WHERE ${where} LIMIT 10`;
      }
      case 'object': {
        const where =
          'id' in key
            ? Prisma.sql`o.id = ${key.id} AND (${key.cls}::text IS NULL OR o.class = ${key.cls})`
            : Prisma.sql`o.class = ANY(${[...key.classes]}::text[])
                         AND (o.number = ${key.key} OR (o.number IS NULL AND o.name = ${key.key}))`;
        return this.db.$queryRaw<EndRecord[]>`
          SELECT o.class AS cls, o.id, o.number, o.name, o.container_id AS "containerId",
                 ${role(Prisma.sql`o.container_id`)} AS "memberRole"
          FROM objects o WHERE ${where} LIMIT 10`;
      }
      case 'user': {
        const where = 'id' in key ? Prisma.sql`u.id = ${key.id}` : Prisma.sql`u.name = ${key.key}`;
        return this.db.$queryRaw<EndRecord[]>`
          SELECT ${OidClass.user}::text AS cls, u.id, NULL::text AS number, u.name, NULL::int AS "containerId",
                 NULL::text AS "memberRole"
          FROM users u WHERE ${where} LIMIT 10`;
      }
      case 'container': {
        const where =
          'id' in key
            ? Prisma.sql`c.id = ${key.id} AND (${key.cls}::text IS NULL OR c.class = ${key.cls})`
            : Prisma.sql`c.name = ${key.key}`;
        return this.db.$queryRaw<EndRecord[]>`
          SELECT c.class AS cls, c.id, NULL::text AS number, c.name, c.id AS "containerId",
                 ${role(Prisma.sql`c.id`)} AS "memberRole"
          FROM containers c WHERE ${where} LIMIT 10`;
      }
      default:
        return Promise.resolve([]);
    }
  }

  /**
   * Holds a link's end while the link is stored: a deletion of it (which locks its row FOR
   * UPDATE and then counts the links naming it) waits for this transaction, and sees the link.
   * Answers who holds it checked out, read from the row as locked (FOR SHARE waits for a
   * check-out in progress, and then reads it committed; a check-out waits for this transaction):
   * a versioned end (iteration or master) may be held, others never are. Null when the end is
   * gone meanwhile.
   */
  async lockEnd(storage: StorageKind, id: number): Promise<CheckoutHold | null> {
    // The holder's name by a subquery of the locked row, as lockMasterText reads it.
    const hold = Prisma.sql`m.checked_out_by AS "holderId", (SELECT u.name FROM users u WHERE u.id = m.checked_out_by) AS holder`;
    let rows: CheckoutHold[] = [FREE];
    if (storage === 'object') {
      rows = await this.db
        .$queryRaw`SELECT NULL::int AS "holderId", NULL::text AS holder FROM objects WHERE id = ${id} FOR SHARE`;
    } else if (storage === 'master') {
      rows = await this.db.$queryRaw`SELECT ${hold} FROM masters m WHERE m.id = ${id} FOR SHARE OF m`;
    } else if (storage === 'iteration') {
      rows = await this.db.$queryRaw`
        SELECT ${hold} FROM iterations i JOIN masters m ON m.id = i.master_id WHERE i.id = ${id} FOR SHARE OF m`;
    }
    return rows[0] ?? null;
  }

  /**
   * The versioned objects among `ids` (iterations or masters, as `storage` keeps them) checked out
   * by someone other than `userId`, with their numbers and holders, as committed now: what a
   * deletion removing catalog links these objects own checks (see CatalogLinksService). Read, not
   * locked: the deletion holds its own object locked, and a link add holding one of these and
   * waiting for that object would deadlock with it. A check-out does not copy catalog links, so
   * one committing after this read is simply ordered after the deletion.
   */
  heldByOthers(storage: 'iteration' | 'master', ids: number[], userId: number): Promise<HeldObject[]> {
    if (ids.length === 0) return Promise.resolve([]);
    const masters =
      storage === 'master'
        ? Prisma.sql`SELECT unnest(${ids}::int[]) AS id`
        : Prisma.sql`SELECT master_id AS id FROM iterations WHERE id = ANY(${ids}::int[])`;
    return this.db.$queryRaw<HeldObject[]>`
      SELECT m.number, u.name AS holder
      FROM masters m JOIN users u ON u.id = m.checked_out_by
      WHERE m.id IN (${masters}) AND m.checked_out_by <> ${userId}
      ORDER BY m.number`;
  }

  /** The new link's id; null when the class links these two already. */
  async insertLink(l: {
    cls: string;
    softType: string | null;
    a: number;
    b: number;
    containerId: number | null;
    props: Record<string, unknown>;
  }): Promise<number | null> {
    const rows = await this.db.$queryRaw<{ id: number }[]>`
      INSERT INTO links (class, soft_type, role_a_id, role_b_id, container_id, props)
      VALUES (${l.cls}, ${l.softType}, ${l.a}, ${l.b}, ${l.containerId}, ${JSON.stringify(l.props)}::jsonb)
      ON CONFLICT (class, role_a_id, role_b_id) DO NOTHING
      RETURNING id`;
    return rows[0]?.id ?? null;
  }

  /** Links by id, or those with one of the given ends, oldest first (at most `limit`). */
  findLinks(where: { id: number } | { sides: LinkSide[] }, userId: number, limit = 1000): Promise<LinkRecord[]> {
    const cond = 'id' in where ? Prisma.sql`l.id = ${where.id}` : sideCondition(where.sides);
    return this.db.$queryRaw<LinkRecord[]>`
      SELECT l.id, l.class AS cls, l.soft_type AS "softType", l.role_a_id AS "roleAId", l.role_b_id AS "roleBId",
             l.container_id AS "containerId", c.name AS "containerName", c.class AS "containerClass", l.props,
             l.created_at AS "createdAt", l.modified_at AS "modifiedAt", mb.role::text AS "memberRole"
      FROM links l
      LEFT JOIN containers c ON c.id = l.container_id
      LEFT JOIN access_roles mb ON mb.container_id = l.container_id AND mb.user_id = ${userId}
      WHERE ${cond}
      ORDER BY l.id LIMIT ${limit}`;
  }

  /**
   * One page of the links with one of the given ends that the caller may read (kept in a
   * container they read, or in none), oldest first, each with both its ends looked up in the
   * tables of its role classes, and how many there are in all: two statements, whatever the page
   * holds. `readable`: the containers the caller reads (null: every one, administrators).
   */
  async pageLinks(
    sides: LinkSide[],
    ends: EndStorages,
    user: { id: number; readable: readonly number[] | null },
    page: { offset: number; limit: number },
  ): Promise<{ total: number; rows: LinkWithEnds[] }> {
    if (sides.length === 0) return { total: 0, rows: [] };
    const where = Prisma.sql`(${sideCondition(sides)}) AND (l.container_id IS NULL OR ${
      user.readable === null ? Prisma.sql`true` : Prisma.sql`l.container_id = ANY(${[...user.readable]}::int[])`
    }) AND ${notOthersWorkingCopy(Prisma.sql`l.role_a_id`, ends.a, user.id)}
      AND ${notOthersWorkingCopy(Prisma.sql`l.role_b_id`, ends.b, user.id)}`;
    const [{ total }] = await this.db.$queryRaw<{ total: number }[]>`
      SELECT count(*)::int AS total FROM links l WHERE ${where}`;
    if (total === 0 || page.offset >= total) return { total, rows: [] };
    type Row = LinkRecord & Record<`${'a' | 'b'}${'Cls' | 'Id' | 'Number' | 'Name' | 'ContainerId' | 'Role'}`, unknown>;
    const rows = await this.db.$queryRaw<Row[]>`
      SELECT l.id, l.class AS cls, l.soft_type AS "softType", l.role_a_id AS "roleAId", l.role_b_id AS "roleBId",
             l.container_id AS "containerId", c.name AS "containerName", c.class AS "containerClass", l.props,
             l.created_at AS "createdAt", l.modified_at AS "modifiedAt", mb.role::text AS "memberRole",
             ea.cls AS "aCls", ea.id AS "aId", ea.number AS "aNumber", ea.name AS "aName",
             ea.container_id AS "aContainerId", ${memberRole(Prisma.sql`ea.container_id`, user.id)} AS "aRole",
             eb.cls AS "bCls", eb.id AS "bId", eb.number AS "bNumber", eb.name AS "bName",
             eb.container_id AS "bContainerId", ${memberRole(Prisma.sql`eb.container_id`, user.id)} AS "bRole"
      FROM links l
      LEFT JOIN containers c ON c.id = l.container_id
      LEFT JOIN access_roles mb ON mb.container_id = l.container_id AND mb.user_id = ${user.id}
      LEFT JOIN LATERAL ${endOf(Prisma.sql`l.role_a_id`, ends.a)} ea ON true
      LEFT JOIN LATERAL ${endOf(Prisma.sql`l.role_b_id`, ends.b)} eb ON true
      WHERE ${where}
      ORDER BY l.id LIMIT ${page.limit} OFFSET ${page.offset}`;
    const end = (r: Row, side: 'a' | 'b'): EndRecord | null =>
      r[`${side}Id`] === null
        ? null
        : {
            cls: r[`${side}Cls`] as string,
            id: r[`${side}Id`] as number,
            number: r[`${side}Number`] as string | null,
            name: r[`${side}Name`] as string | null,
            containerId: r[`${side}ContainerId`] as number | null,
            memberRole: r[`${side}Role`] as MemberRole | null,
          };
    return {
      total,
      rows: rows.map((r) => ({
        id: r.id,
        cls: r.cls,
        softType: r.softType,
        roleAId: r.roleAId,
        roleBId: r.roleBId,
        containerId: r.containerId,
        containerName: r.containerName,
        containerClass: r.containerClass,
        props: r.props,
        createdAt: r.createdAt,
        modifiedAt: r.modifiedAt,
        memberRole: r.memberRole,
        a: end(r, 'a'),
        b: end(r, 'b'),
      })),
    };
  }

  async deleteLinks(ids: number[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db.$executeRaw`DELETE FROM links WHERE id = ANY(${ids}::int[])`;
  }
}

/** Links keeping one of the ids in a role of one of the classes (the indexes (class, role id) find them). */
/**
 * That a link's role (`idColumn`) names no working copy of a check-out held by another user than
 * `userId`: such a link is its holder's draft until the check-in.
 */
function notOthersWorkingCopy(idColumn: Prisma.Sql, storages: Partial<Record<StorageKind, string[]>>, userId: number) {
  const classes = storages.iteration ?? [];
  if (classes.length === 0) return Prisma.sql`true`;
  return Prisma.sql`NOT (l.class = ANY(${classes}::text[]) AND EXISTS (
    SELECT 1 FROM iterations w JOIN masters wm ON wm.id = w.master_id
    WHERE w.id = ${idColumn} AND w.working AND wm.checked_out_by IS DISTINCT FROM ${userId}))`;
}

function sideCondition(sides: LinkSide[]): Prisma.Sql {
  if (sides.length === 0) return Prisma.sql`false`;
  return Prisma.join(
    sides.map((s) =>
      s.side === 'a'
        ? Prisma.sql`(l.class = ANY(${s.classes}::text[]) AND l.role_a_id = ANY(${s.ids}::int[]))`
        : Prisma.sql`(l.class = ANY(${s.classes}::text[]) AND l.role_b_id = ANY(${s.ids}::int[]))`,
    ),
    ' OR ',
  );
}

/** The caller's role in a container, as a scalar subquery. */
function memberRole(containerColumn: Prisma.Sql, userId: number): Prisma.Sql {
  return Prisma.sql`(SELECT m.role::text FROM access_roles m WHERE m.container_id = ${containerColumn} AND m.user_id = ${userId})`;
}

/**
 * The record a link's role id names, in the table of the storage the link's class gives that
 * role (a subquery for LEFT JOIN LATERAL, over the link row `l`): cls, id, number, name and the
 * container whose readers read it, as findEnds answers them.
 */
function endOf(idColumn: Prisma.Sql, storages: Partial<Record<StorageKind, string[]>>): Prisma.Sql {
  const of = (storage: StorageKind) => storages[storage] ?? [];
  return Prisma.sql`(
    SELECT m.class AS cls, i.id, m.number, m.name, m.container_id
    FROM iterations i JOIN masters m ON m.id = i.master_id
    WHERE l.class = ANY(${of('iteration')}::text[]) AND i.id = ${idColumn}
    UNION ALL
    SELECT m.class || ${MASTER_SUFFIX}::text, m.id, m.number, m.name, m.container_id FROM masters m
    WHERE l.class = ANY(${of('master')}::text[]) AND m.id = ${idColumn}
    UNION ALL
    SELECT o.class, o.id, o.number, o.name, o.container_id FROM objects o
    WHERE l.class = ANY(${of('object')}::text[]) AND o.id = ${idColumn}
    UNION ALL
    SELECT ${OidClass.user}::text, u.id, NULL::text, u.name, NULL::int FROM users u
    WHERE l.class = ANY(${of('user')}::text[]) AND u.id = ${idColumn}
    UNION ALL
    SELECT c.class, c.id, NULL::text, c.name, c.id FROM containers c
    WHERE l.class = ANY(${of('container')}::text[]) AND c.id = ${idColumn}
    LIMIT 1)`;
}
