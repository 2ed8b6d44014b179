import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Sql as CompiledSql } from '../catalog/sql.js';
import { Clock } from '../common/clock.js';
import { isLockTimeout } from '../common/database-errors.js';
import { HttpErrorWithHeaders } from '../common/http-errors.js';
import { Turns } from '../common/turns.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { Prisma } from '../generated/prisma/client.js';
import { boundLockWaits } from '../prisma/object-locks.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { ReadReplica } from '../prisma/read-replica.js';

type Sql = Prisma.Sql;
const { sql } = Prisma;

/** SQL text of the `q` compiler (src/catalog/sql.ts) as a Prisma fragment, values still bound. */
export function toPrismaSql(fragment: CompiledSql): Sql {
  return new Prisma.Sql(fragment.strings, fragment.values as Prisma.Sql['values']);
}

/** One business object of a page, as read from the database. */
export interface ItemRow {
  pos: number;
  id: number;
  cls: string;
  subtype: string | null;
  number: string;
  name: string;
  version: string;
  iteration: number;
  state: string;
  latest: boolean;
  containerId: number;
  containerClass: string;
  containerName: string;
  createdBy: string;
  createdAt: Date;
  modifiedAt: Date;
}

/** 1-based positions, both inclusive. */
export interface PosRange {
  from: number;
  to: number;
}

/** What a session's replies hold besides the matches, as kept with it (null: none). */
export interface StoredShape {
  fields: string[] | null;
  associations: string[] | null;
}

export interface SnapshotRequest {
  userId: number;
  query: object;
  /** Kept with the session: its page fetches answer with the same fields and associations. */
  shape: StoredShape;
  where: Sql;
  order: Sql;
  /**
   * Set when the matches can be read in number order from masters_number_idx (see
   * numberOrderScan in q-compile.ts): criteria over `masters m` alone, the direction, and
   * whether only latest iterations match. Null: the matches are joined, then sorted by `order`.
   */
  numberOrder: { where: Sql; desc: boolean; latest: boolean } | null;
  /** readable container ids, null for all */
  readable: number[] | null;
  ttlMs: number;
  /** the caller's open-session cap: at it, a query is first probed cheaply */
  maxOpen: number;
  range: PosRange;
  /**
   * Decides, once the total and the caller's open sessions are known, whether the session is
   * kept (true) or dropped because the reply holds everything (false); throws to roll back.
   * At the cap it is called first with a count that stops one row past the first page.
   */
  keep(total: number, openSessions: number): boolean;
}

/** A page of a session, with what the session keeps. */
export interface SessionPage extends StoredShape {
  total: number;
  query: unknown;
  items: ItemRow[];
}

export type SessionLookup = ({ state: 'open' } & SessionPage) | { state: 'missing' } | { state: 'closed' | 'expired' };

/** Tombstones of closed or expired sessions are kept this long, then an id is just unknown. */
const TOMBSTONE_RETENTION_MS = 7 * 24 * 3600 * 1000;
const SNAPSHOT_WORK_MEM = '128MB';
/**
 * Iteration ids per row of a session's snapshot: writing a thousandth of the rows (and index
 * entries) makes opening a session over a million matches about 40 % faster than a row per id.
 */
const SNAPSHOT_CHUNK = 1000;
/** pg_advisory_xact_lock namespace of "open a query session" (per user). */
const OPEN_LOCK = 74_510;

/** What an open that waited DB_LOCK_TIMEOUT_MS for another open of the same user is told (503). */
export const OPEN_BUSY = 'another query session of the same user is being opened; retry shortly';

/** 503 with Retry-After: the open waited DB_LOCK_TIMEOUT_MS for another open of the same user. */
export function openBusy(): HttpErrorWithHeaders {
  return new HttpErrorWithHeaders(HttpStatus.SERVICE_UNAVAILABLE, OPEN_BUSY, { 'Retry-After': '1' });
}

/**
 * Takes the user's open lock for the transaction, waiting at most `timeoutMs` for an open of
 * theirs that holds it (on another instance, or one that did not take its turn here): 503 past
 * it. Lock waits after it are as the server sets them again: the bound is for this lock only.
 */
async function lockOpens(tx: Prisma.TransactionClient, userId: number, timeoutMs: number): Promise<void> {
  try {
    // Without FROM, the WHERE is checked before the lock is taken.
    await tx.$executeRaw`
      SELECT pg_advisory_xact_lock(${OPEN_LOCK}::integer, ${userId}::integer) WHERE ${boundLockWaits(timeoutMs)}`;
  } catch (e) {
    if (isLockTimeout(e)) throw openBusy();
    throw e;
  }
  await tx.$executeRaw`
    SELECT set_config('lock_timeout', (SELECT reset_val FROM pg_settings WHERE name = 'lock_timeout'), true)`;
}

/** The time before which a session last used is idle longer than `ttlMs`. */
function idle(now: Sql, ttlMs: number): Sql {
  return sql`${now} - ${ttlMs}::bigint * interval '1 millisecond'`;
}

function permitted(readable: number[] | null): Sql {
  return readable === null ? sql`TRUE` : sql`m.container_id = ANY(${readable}::integer[])`;
}

/**
 * The ids of all matches in their order, as one array (column `ids`).
 *
 * Sorted by number (the default) with criteria on masters only (`numberOrder`), the masters are
 * read in number order from masters_number_idx, each followed by its iterations from
 * iterations_one_latest_per_master (or, for all iterations, by master id): both indexes carry the
 * ids, so neither table is read, and only the few rows of equal numbers are sorted again, by
 * iteration id. Joining first and sorting after compares numbers in the database's collation a
 * million times over, with no abbreviated keys outside the C collation: over a million matches
 * the index order takes about 40 % less time. `OFFSET 0` keeps the iteration look-up a lateral
 * subquery run per master in that order, instead of a join the planner would hash and sort again.
 * A selective criterion may still find its few masters by another index and sort them.
 * array_agg takes the rows in the order of its sorted subquery: a subquery with ORDER BY is never
 * flattened, and a statement that writes runs without parallel workers.
 *
 * Any other query: the matches are joined, then sorted by `order` inside array_agg.
 */
function matchesSql(req: SnapshotRequest): Sql {
  const scan = req.numberOrder;
  if (!scan) {
    return sql`
      SELECT array_agg(i.id ORDER BY ${req.order}) AS ids
      FROM iterations i JOIN masters m ON m.id = i.master_id
      WHERE ${permitted(req.readable)} AND NOT i.working AND ${req.where}`;
  }
  const dir = Prisma.raw(scan.desc ? 'DESC' : 'ASC');
  // Working copies of check-outs are their holders' alone: never matched.
  const latest = scan.latest ? sql`AND i.latest` : sql`AND NOT i.working`;
  return sql`
    SELECT array_agg(o.id) AS ids FROM (
      SELECT i.id
      FROM (
        SELECT m.id, m.number FROM masters m
        WHERE ${permitted(req.readable)} AND ${scan.where}
        ORDER BY m.number ${dir}
      ) m
      CROSS JOIN LATERAL (SELECT i.id FROM iterations i WHERE i.master_id = m.id ${latest} OFFSET 0) i
      ORDER BY m.number ${dir}, i.id ASC
    ) o`;
}

/** The query_sessions and query_session_chunks tables. */
@Injectable()
export class QueryRepository {
  /**
   * Per user id: the opens of one user on this instance, one at a time, each waiting for the one
   * before it without a database connection, at most DB_LOCK_TIMEOUT_MS (503).
   */
  private readonly opens: Turns<number>;

  constructor(
    private readonly prisma: PrismaService,
    private readonly replica: ReadReplica,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.opens = new Turns(config.dbLockTimeoutMs, openBusy);
  }

  /**
   * Opens a session: snapshots the ordered ids of all matches in one INSERT … SELECT, then
   * reads the first page from the snapshot. Returns session id 0n when `keep` dropped it.
   * The matches are gathered in order into one array (matchesSql), cut into chunks by slicing:
   * about twice as fast over a million matches as numbering them with a window and grouping
   * (which sorts again).
   *
   * One open at a time per user, so that two racing opens cannot both pass the cap: on this
   * instance they take turns before taking a connection (a burst of one user's opens holds one
   * connection, not the pool), across instances the advisory lock serialises them. Neither wait
   * lasts longer than DB_LOCK_TIMEOUT_MS (503 with Retry-After: 1).
   */
  snapshot(req: SnapshotRequest): Promise<{ id: bigint; total: number; items: ItemRow[] }> {
    return this.opens.inTurn(req.userId, () => this.snapshotInTurn(req));
  }

  private snapshotInTurn(req: SnapshotRequest): Promise<{ id: bigint; total: number; items: ItemRow[] }> {
    return this.prisma.transaction(async ({ db: tx }) => {
      const now = this.clock.nowSql();
      await lockOpens(tx, req.userId, this.opens.timeoutMs);
      // Sorting a million matches in memory instead of on disk halves the sort; this
      // transaction only.
      await tx.$executeRaw`SELECT set_config('work_mem', ${SNAPSHOT_WORK_MEM}, true)`;
      const [{ open }] = await tx.$queryRaw<{ open: number }[]>`
          SELECT count(*)::integer AS open FROM query_sessions
          WHERE user_id = ${req.userId} AND closed_at IS NULL AND last_used_at >= ${idle(now, req.ttlMs)}`;
      if (open >= req.maxOpen) {
        // At the cap only a reply that needs no session can be given: find that out from at
        // most one more row than the page holds, not from a snapshot of every match.
        const probe = req.range.from === 1 ? req.range.to + 1 : 1;
        const [{ n }] = await tx.$queryRaw<{ n: number }[]>`
            SELECT count(*)::integer AS n FROM (
              SELECT 1 FROM iterations i JOIN masters m ON m.id = i.master_id
              WHERE ${permitted(req.readable)} AND NOT i.working AND ${req.where} LIMIT ${probe}) x`;
        req.keep(n, open);
      }
      const [{ id }] = await tx.$queryRaw<{ id: bigint }[]>`
          INSERT INTO query_sessions (user_id, query, total, last_used_at, fields, associations)
          VALUES (${req.userId}, ${JSON.stringify(req.query)}::jsonb, 0, ${now},
                  ${jsonOrNull(req.shape.fields)}::jsonb, ${jsonOrNull(req.shape.associations)}::jsonb)
          RETURNING id`;
      const [{ total }] = await tx.$queryRaw<{ total: number }[]>`
          WITH chunks AS (
            INSERT INTO query_session_chunks (session_id, chunk, ids)
            SELECT ${id}::bigint, k, matches.ids[k * ${SNAPSHOT_CHUNK}::integer + 1 : (k + 1) * ${SNAPSHOT_CHUNK}::integer]
            FROM (${matchesSql(req)}) matches
            CROSS JOIN generate_series(0, (cardinality(matches.ids) - 1) / ${SNAPSHOT_CHUNK}::integer) k
            WHERE cardinality(matches.ids) > 0
            RETURNING cardinality(ids) AS n
          )
          SELECT coalesce(sum(n), 0)::integer AS total FROM chunks`;
      const kept = req.keep(total, open);
      const items = await tx.$queryRaw<ItemRow[]>(pageSql(id, req.range, req.readable));
      if (kept) {
        await tx.$executeRaw`UPDATE query_sessions SET total = ${total} WHERE id = ${id}`;
      } else {
        await tx.$executeRaw`DELETE FROM query_session_chunks WHERE session_id = ${id}`;
        await tx.$executeRaw`DELETE FROM query_sessions WHERE id = ${id}`;
      }
      return { id: kept ? id : 0n, total, items };
    });
  }

  /**
   * The common case: marks the caller's open, unexpired session used and reads the page. Null
   * when the session is not such a session (then `page` tells why).
   *
   * Without a replica, that is one statement. With one, the session is marked used on the
   * primary and its page read on the replica, once the replica has the session: its snapshot
   * was written on the primary in one transaction, so a replica that shows the session row has
   * all of its chunks. A replica that has not replayed it yet (a session opened a moment ago)
   * is not waited for: the page is read on the primary.
   */
  async touchAndRead(
    sessionId: bigint,
    userId: number,
    range: PosRange,
    readable: number[] | null,
    ttlMs: number,
  ): Promise<SessionPage | null> {
    if (!this.replica.usable) return this.touchAndReadOnPrimary(sessionId, userId, range, readable, ttlMs);
    const now = this.clock.nowSql();
    const touched = await this.prisma.$queryRaw<({ total: number; query: unknown } & StoredShape)[]>`
      UPDATE query_sessions SET last_used_at = ${now}
      WHERE id = ${sessionId} AND user_id = ${userId} AND closed_at IS NULL AND last_used_at >= ${idle(now, ttlMs)}
      RETURNING total, query, fields, associations`;
    if (touched.length === 0) return null;
    const page = pageSql(sessionId, range, readable);
    const items = await this.replica.read(
      async (pool) => {
        const values = [...page.values, sessionId].map((v) => (typeof v === 'bigint' ? v.toString() : v));
        const { rows } = await pool.query<ItemRow | { pos: null }>(
          `SELECT p.* FROM query_sessions s LEFT JOIN LATERAL (${page.text}) p ON TRUE
           WHERE s.id = $${values.length} ORDER BY p.pos`,
          values,
        );
        if (rows.length === 0) return undefined; // the replica has not replayed the session yet
        return rows[0].pos === null ? [] : (rows as ItemRow[]);
      },
      () => this.prisma.$queryRaw<ItemRow[]>(page),
    );
    const { total, query, fields, associations } = touched[0];
    return { total, query, fields, associations, items };
  }

  private async touchAndReadOnPrimary(
    sessionId: bigint,
    userId: number,
    range: PosRange,
    readable: number[] | null,
    ttlMs: number,
  ): Promise<SessionPage | null> {
    const now = this.clock.nowSql();
    const rows = await this.prisma.$queryRaw<
      (ItemRow & {
        sessionTotal: number;
        sessionQuery: unknown;
        sessionFields: unknown;
        sessionAssociations: unknown;
      })[]
    >`
      WITH s AS (
        UPDATE query_sessions SET last_used_at = ${now}
        WHERE id = ${sessionId} AND user_id = ${userId} AND closed_at IS NULL AND last_used_at >= ${idle(now, ttlMs)}
        RETURNING total, query, fields, associations
      )
      SELECT s.total AS "sessionTotal", s.query AS "sessionQuery", s.fields AS "sessionFields",
             s.associations AS "sessionAssociations", p.*
      FROM s LEFT JOIN LATERAL (${pageSql(sessionId, range, readable)}) p ON TRUE
      ORDER BY p.pos`;
    if (rows.length === 0) return null;
    const [first] = rows;
    const items =
      first.pos === null
        ? []
        : rows.map(
            ({ sessionTotal: _t, sessionQuery: _q, sessionFields: _f, sessionAssociations: _a, ...item }) => item,
          );
    return {
      total: first.sessionTotal,
      query: first.sessionQuery,
      fields: first.sessionFields as string[] | null,
      associations: first.sessionAssociations as string[] | null,
      items,
    };
  }

  /**
   * Reads a page of the caller's session and marks it used, or closes it when `close` is set.
   * A session idle past the TTL is expired here (and its items deleted) even before the sweep.
   */
  async page(
    sessionId: bigint,
    userId: number,
    range: PosRange | null,
    readable: number[] | null,
    ttlMs: number,
    close: boolean,
  ): Promise<SessionLookup> {
    const now = this.clock.nowSql();
    return this.prisma.transaction(async ({ db: tx }) => {
      const rows = await tx.$queryRaw<
        ({
          userId: number;
          total: number;
          query: unknown;
          closeReason: string | null;
          expired: boolean;
        } & StoredShape)[]
      >`
        SELECT user_id AS "userId", total, query, fields, associations, close_reason AS "closeReason",
               (closed_at IS NULL AND last_used_at < ${idle(now, ttlMs)}) AS expired
        FROM query_sessions WHERE id = ${sessionId} FOR UPDATE`;
      const s = rows[0];
      if (!s || s.userId !== userId) return { state: 'missing' };
      if (s.closeReason === 'closed' || s.closeReason === 'expired') return { state: s.closeReason };
      if (s.expired) {
        await endSession(tx, sessionId, 'expired', now);
        return { state: 'expired' };
      }
      const items = range ? await tx.$queryRaw<ItemRow[]>(pageSql(sessionId, range, readable)) : [];
      if (close) await endSession(tx, sessionId, 'closed', now);
      else await tx.$executeRaw`UPDATE query_sessions SET last_used_at = ${now} WHERE id = ${sessionId}`;
      return { state: 'open', total: s.total, query: s.query, fields: s.fields, associations: s.associations, items };
    });
  }

  /** Runs a statement reading fields of some objects (query-fields.ts); rows keyed c1 (the id), c2 … */
  readFields(statement: CompiledSql): Promise<Record<string, unknown>[]> {
    return this.prisma.$queryRaw<Record<string, unknown>[]>(toPrismaSql(statement));
  }

  /** Expires idle sessions (deleting their snapshots), forgets old tombstones and orphaned snapshots. */
  async sweep(ttlMs: number): Promise<number> {
    const now = this.clock.nowSql();
    return this.prisma.transaction(async ({ db: tx }) => {
      const expired = await tx.$queryRaw<{ id: bigint }[]>`
        UPDATE query_sessions SET closed_at = ${now}, close_reason = 'expired'
        WHERE closed_at IS NULL AND last_used_at < ${idle(now, ttlMs)} RETURNING id`;
      if (expired.length) {
        const ids = expired.map((r) => r.id.toString());
        await tx.$executeRaw`DELETE FROM query_session_chunks WHERE session_id = ANY(${ids}::bigint[])`;
      }
      await tx.$executeRaw`DELETE FROM query_sessions WHERE closed_at < ${idle(now, TOMBSTONE_RETENTION_MS)}`;
      // Snapshots whose session went with its user (sessions cascade, chunks have no key to follow).
      await tx.$executeRaw`
          DELETE FROM query_session_chunks c
          WHERE NOT EXISTS (SELECT 1 FROM query_sessions s WHERE s.id = c.session_id)`;
      return expired.length;
    });
  }
}

function jsonOrNull(value: unknown): string | null {
  return value === null ? null : JSON.stringify(value);
}

async function endSession(tx: Prisma.TransactionClient, sessionId: bigint, reason: 'closed' | 'expired', now: Sql) {
  await tx.$executeRaw`DELETE FROM query_session_chunks WHERE session_id = ${sessionId}`;
  await tx.$executeRaw`
    UPDATE query_sessions SET closed_at = ${now}, close_reason = ${reason} WHERE id = ${sessionId}`;
}

/**
 * A page by position in the snapshot: position p is element (p - 1) % SNAPSHOT_CHUNK + 1 of
 * chunk (p - 1) / SNAPSHOT_CHUNK, so a page reads one or two chunks by primary key and page
 * 40 000 costs what page 0 costs. Items are re-checked against the caller's containers and
 * joined live, so an object deleted since the snapshot drops out of its page.
 */
function pageSql(sessionId: bigint, range: PosRange, readable: number[] | null): Sql {
  const first = Math.floor((range.from - 1) / SNAPSHOT_CHUNK);
  const last = Math.floor((range.to - 1) / SNAPSHOT_CHUNK);
  return sql`
    SELECT s.pos, i.id, m.class AS cls, m.subtype, m.number, m.name, i.version, i.iteration,
           i.state, i.latest, c.id AS "containerId", c.class AS "containerClass",
           c.name AS "containerName", u.name AS "createdBy", i.created_at AS "createdAt",
           i.modified_at AS "modifiedAt"
    FROM (
      SELECT (c.chunk * ${SNAPSHOT_CHUNK}::integer + e.ord)::integer AS pos, e.iteration_id
      FROM query_session_chunks c CROSS JOIN LATERAL unnest(c.ids) WITH ORDINALITY AS e(iteration_id, ord)
      WHERE c.session_id = ${sessionId} AND c.chunk BETWEEN ${first}::integer AND ${last}::integer
    ) s
    JOIN iterations i ON i.id = s.iteration_id
    JOIN masters m ON m.id = i.master_id
    JOIN containers c ON c.id = m.container_id
    JOIN users u ON u.id = i.created_by
    WHERE s.pos BETWEEN ${range.from}::integer AND ${range.to}::integer
      AND ${permitted(readable)}
    ORDER BY s.pos`;
}
