import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { isUniqueViolation, sqlState } from '../common/database-errors.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import pg from 'pg';
import { auditViaPrisma, recordAudit } from '../audit/audit.repository.js';
import { Prisma } from '../generated/prisma/client.js';
import { DatabasePools } from '../prisma/database-pools.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { runTransaction } from '../prisma/transactions.js';
import { ReadReplica } from '../prisma/read-replica.js';
import { forgetPrepared, isPrepared } from '../patches/pg-parsed-statements.js';
import { templateEvent } from './report-audit.js';

const pgTypes = pg.types;

export interface TemplateRow {
  id: number;
  name: string;
  description: string | null;
  qml: string;
  containerId: number;
  containerName: string;
  createdAt: Date;
  modifiedAt: Date;
}

export interface TemplateFilter {
  /** SQL LIKE pattern (escaped with backslash), or null for all names. */
  namePattern: string | null;
  containerName: string | null;
  /** Containers the caller may read; null for all. */
  containerIds: number[] | null;
  limit: number | null;
}

/** Thrown when PostgreSQL cancelled a report query at its statement timeout. */
export class ReportTimeoutError extends Error {}

/** A value PostgreSQL refused while running a report (SQLSTATE class 22, data exception). */
export class ReportDataError extends Error {}

/** Thrown when a template of that name was created meanwhile (the unique name index refused it). */
export class TemplateNameTakenError extends Error {}

/** Thrown when the caller already runs as many reports as one user may. */
export class ReportSlotsTakenError extends Error {}

/** Whose report it is, and how many one user may run at once. */
export interface ReportSlot {
  userId: number;
  max: number;
}

/**
 * Advisory lock keys of report slots: (REPORT_SLOT_LOCK + k, user id) for k = 1 … max. The
 * query service's locks use first keys below 100 000, so they never meet these.
 */
const REPORT_SLOT_LOCK = 74_600_000;

/**
 * Takes the first free slot of the user on this connection (one round trip: LIMIT 1 stops at the
 * first lock taken), or throws ReportSlotsTakenError. Advisory locks are held by the database,
 * so the limit holds across every instance of the service.
 */
async function takeSlot(
  client: pg.PoolClient,
  slot: ReportSlot | null,
  lock: 'pg_try_advisory_lock' | 'pg_try_advisory_xact_lock',
): Promise<number | null> {
  if (!slot) return null;
  const { rows } = await client.query<{ k: number }>(
    `SELECT k FROM generate_series(1, $2::int4) k WHERE ${lock}($1::int4 + k, $3::int4) LIMIT 1`,
    [REPORT_SLOT_LOCK, slot.max, slot.userId],
  );
  if (rows.length === 0) throw new ReportSlotsTakenError();
  return rows[0].k;
}

const TEMPLATE_SELECT = {
  id: true,
  name: true,
  description: true,
  qml: true,
  containerId: true,
  createdAt: true,
  modifiedAt: true,
  container: { select: { name: true } },
} as const;

type TemplateRecord = Prisma.ReportTemplateGetPayload<{ select: typeof TEMPLATE_SELECT }>;

function toRow(r: TemplateRecord): TemplateRow {
  const { container, ...rest } = r;
  return { ...rest, containerName: container.name };
}

/**
 * Gives a slot back and the connection to its pool. A connection that fails to unlock is
 * dropped (its locks go with it), so a slot never stays taken by a connection in the pool.
 */
async function giveBack(client: pg.PoolClient, held: number | null, slot: ReportSlot | null): Promise<void> {
  if (held === null || !slot) {
    client.release();
    return;
  }
  try {
    await client.query('SELECT pg_advisory_unlock($1::int4, $2::int4)', [REPORT_SLOT_LOCK + held, slot.userId]);
    client.release();
  } catch (e) {
    client.release(e as Error);
  }
}

/** report_templates, and the execution of compiled report queries. */
@Injectable()
export class ReportsRepository {
  /** Report queries prepared per connection (REPORT_PREPARED_STATEMENTS). */
  private readonly statements: PreparedStatements;

  constructor(
    private readonly prisma: PrismaService,
    private readonly pools: DatabasePools,
    private readonly replica: ReadReplica,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.statements = new PreparedStatements(config.reportPreparedStatements);
  }

  /**
   * Whether a report started now runs on the replica (execute with `onReplica`): one is
   * configured and was not found unable to answer lately. It may still fall back to the primary.
   */
  get replicaUsable(): boolean {
    return this.replica.usable;
  }

  async list(f: TemplateFilter): Promise<{ id: number; name: string }[]> {
    const where: Prisma.Sql[] = [Prisma.sql`TRUE`];
    if (f.containerIds) where.push(Prisma.sql`t.container_id = ANY(${f.containerIds}::int4[])`);
    if (f.namePattern !== null) where.push(Prisma.sql`t.name LIKE ${f.namePattern}`);
    if (f.containerName !== null) where.push(Prisma.sql`c.name = ${f.containerName}`);
    const limit = f.limit === null ? Prisma.empty : Prisma.sql`LIMIT ${f.limit}`;
    return this.prisma.$queryRaw<{ id: number; name: string }[]>`
      SELECT t.id, t.name FROM report_templates t JOIN containers c ON c.id = t.container_id
      WHERE ${Prisma.join(where, ' AND ')} ORDER BY t.name, t.id ${limit}`;
  }

  async findByName(name: string): Promise<TemplateRow | null> {
    const r = await this.prisma.reportTemplate.findUnique({ where: { name }, select: TEMPLATE_SELECT });
    return r ? toRow(r) : null;
  }

  async findById(id: number): Promise<TemplateRow | null> {
    const r = await this.prisma.reportTemplate.findUnique({ where: { id }, select: TEMPLATE_SELECT });
    return r ? toRow(r) : null;
  }

  async findContainerByName(name: string): Promise<{ id: number; name: string } | null> {
    return this.prisma.container.findUnique({ where: { name }, select: { id: true, name: true } });
  }

  /** Creates a template and records `reports.put` for it, in one transaction. */
  async create(
    data: { name: string; containerId: number; description: string | null; qml: string },
    userId: number,
  ): Promise<TemplateRow> {
    try {
      return await this.prisma.transaction(async ({ db: tx }) => {
        const row = toRow(await tx.reportTemplate.create({ data, select: TEMPLATE_SELECT }));
        await recordAudit(auditViaPrisma(tx), templateEvent(userId, 'reports.put', row, null));
        return row;
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new TemplateNameTakenError();
      throw e;
    }
  }

  /**
   * Replaces a template and records `reports.put` with what it was just before (read with its
   * row locked), in one transaction.
   */
  async update(
    id: number,
    data: { containerId: number; description: string | null; qml: string },
    userId: number,
  ): Promise<TemplateRow> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await tx.$queryRaw`SELECT id FROM report_templates WHERE id = ${id} FOR UPDATE`;
      const before = await tx.reportTemplate.findUnique({ where: { id }, select: TEMPLATE_SELECT });
      const row = toRow(
        await tx.reportTemplate.update({
          where: { id },
          data: { ...data, modifiedAt: new Date() },
          select: TEMPLATE_SELECT,
        }),
      );
      await recordAudit(auditViaPrisma(tx), templateEvent(userId, 'reports.put', row, before && toRow(before)));
      return row;
    });
  }

  /** Deletes a template and records `reports.delete` with what it was, in one transaction. */
  async delete(id: number, userId: number): Promise<void> {
    await this.prisma.transaction(async ({ db: tx }) => {
      const row = toRow(await tx.reportTemplate.delete({ where: { id }, select: TEMPLATE_SELECT }));
      await recordAudit(auditViaPrisma(tx), templateEvent(userId, 'reports.delete', row, null));
    });
  }

  /**
   * Runs a compiled report query read-only, cancelled by PostgreSQL itself after
   * REPORT_TIMEOUT_MS, so a runaway query stops using the server. Rows come back as arrays
   * without the per-value conversions of Prisma's raw queries, which cost more than the query
   * itself for typical reports.
   *
   * Reports have a pool of their own whose connections are opened read-only and with the
   * report timeout as their statement_timeout: a report is one statement, one round trip.
   * With a pool of one connection (the embedded database), they share Prisma's pool and get the
   * same limits from a read-only transaction with SET LOCAL statement_timeout instead.
   *
   * Before the query, the report takes one of the caller's `slot.max` slots on its connection
   * (ReportSlotsTakenError when none is free); it is given back when the report has ended.
   * A null slot: no per-user limit.
   *
   * `genericPlan`: whether the statement may be prepared and keep a generic plan (see
   * PreparedStatements).
   *
   * With a replica, reports run there when `onReplica` is set (slots are then taken on the
   * replica) and see the data as far as it has replayed; on the primary while the replica cannot
   * answer. `onReplica` false (the default): on the primary (the query reads the caller's access roles, which
   * only the primary has up to date; see replicaUsable).
   */
  async execute(
    sql: { text: string; values: readonly unknown[] },
    slot: ReportSlot | null,
    genericPlan?: boolean,
    onReplica = false,
  ): Promise<unknown[][]> {
    const query = {
      text: sql.text,
      values: [...sql.values],
      rowMode: 'array' as const,
      types: REPORT_TYPES,
    };
    const reports = this.pools.reports;
    const primary = () =>
      reports ? this.onPool(reports, query, genericPlan, slot) : this.inTransaction(query, genericPlan, slot);
    try {
      return await (onReplica
        ? this.replica.read((replica) => this.onPool(replica, query, genericPlan, slot), primary, 'reports')
        : primary());
    } catch (e) {
      const state = sqlState(e);
      if (state?.code === '57014') throw new ReportTimeoutError();
      if (state?.code.startsWith('22')) throw new ReportDataError(state.message);
      throw e;
    }
  }

  private async onPool(
    pool: pg.Pool,
    query: pg.QueryConfig & { rowMode: 'array' },
    genericPlan: boolean | undefined,
    slot: ReportSlot | null,
  ): Promise<unknown[][]> {
    const client = await pool.connect();
    let held: number | null = null;
    let rows: unknown[][];
    try {
      held = await takeSlot(client, slot, 'pg_try_advisory_lock');
      rows = (await client.query<unknown[]>(await this.statements.name(client, query, genericPlan))).rows;
    } catch (e) {
      await giveBack(client, held, slot);
      throw e;
    }
    // Given back before the answer, so that the user's next report finds the slot free.
    await giveBack(client, held, slot);
    return rows;
  }

  /** A read-only transaction on the primary, with the reports' statement timeout. */
  private inTransaction(
    query: pg.QueryConfig & { rowMode: 'array' },
    genericPlan: boolean | undefined,
    slot: ReportSlot | null,
  ): Promise<unknown[][]> {
    return runTransaction(
      this.pools.primary,
      async ({ client }) => {
        // A transaction-level slot: the end of the transaction gives it back.
        await takeSlot(client, slot, 'pg_try_advisory_xact_lock');
        return (await client.query<unknown[]>(await this.statements.name(client, query, genericPlan))).rows;
      },
      { readOnly: true, statementTimeoutMs: this.config.reportTimeoutMs },
    );
  }
}

const INT8 = 20;

/** int8 (counts, sums, long properties) as JSON numbers while they are exact, else as text. */
const REPORT_TYPES = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8) {
      return (text: string) => {
        const n = Number(text);
        return Number.isSafeInteger(n) ? n : text;
      };
    }
    return pgTypes.getTypeParser(oid, format as 'text');
  },
} as unknown as pg.CustomTypesConfig;

/**
 * Report queries as named prepared statements, so PostgreSQL parses (and, where it keeps a
 * generic plan, plans) a template's SQL once per connection instead of on every request. The
 * rendered SQL of a template is stable for one parameter shape and one kind of caller; its
 * values are always bound. Each connection keeps at most `perConnection` statements, least
 * recently used deallocated first; 0 runs every query unnamed.
 *
 * Statement names are a digest of the SQL text, so the same report gets the same name on every
 * connection and a name never stands for two texts.
 *
 * A statement runs unnamed, planned for its values every time, when `genericPlan` is false: after
 * five runs of a prepared statement PostgreSQL may keep a generic plan, and a generic plan cannot
 * turn a LIKE pattern's literal prefix into an index range (measured on the 100 000-object
 * benchmark data: the number-wildcard report went from 3–5 ms to 25–40 ms once the generic plan
 * was chosen). Report SQL gives such a LIKE the range as conditions of its own, which a generic
 * plan uses (src/qml/qml-sql.ts likeRange), and says so; for other SQL the default is false when
 * the text has a LIKE. The SQL text holds no values (they are all bound), so ` LIKE ` in it is
 * always the operator.
 */
export class PreparedStatements {
  private readonly byClient = new WeakMap<pg.ClientBase, ClientStatements>();

  constructor(private readonly perConnection: number) {}

  /** The query to run on `client`: named, after the statements it pushed out are deallocated. */
  async name<Q extends pg.QueryConfig>(
    client: pg.ClientBase,
    query: Q,
    genericPlan = !LIKE.test(query.text),
  ): Promise<Q> {
    if (this.perConnection <= 0 || !genericPlan) return query;
    const name = statementName(query.text);
    let held = this.byClient.get(client);
    if (!held) {
      const evicted: string[] = [];
      const names = new LRUCache<string, true>({
        max: this.perConnection,
        dispose: (_v, key, reason) => {
          if (reason === 'evict') evicted.push(key);
        },
      });
      held = { names, evicted };
      this.byClient.set(client, held);
    }
    held.names.set(name, true);
    for (const old of held.evicted.splice(0)) await deallocate(client, old);
    return { ...query, name };
  }
}

const LIKE = / (NOT )?LIKE /;

/**
 * Names of recent texts (at most 1000, and 2 million characters of text): digesting the SQL of
 * every request cost more than looking its name up.
 */
const NAMES = new LRUCache<string, string>({
  max: 1000,
  maxSize: 2 * 1024 * 1024,
  sizeCalculation: (_n, text) => text.length,
});

/** `report_` and the first 128 bits of the text's SHA-256, in hex. */
function statementName(text: string): string {
  let name = NAMES.get(text);
  if (name === undefined) {
    name = `report_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    NAMES.set(text, name);
  }
  return name;
}

interface ClientStatements {
  names: LRUCache<string, true>;
  /** Pushed out of `names` by the last set(), to be deallocated before the next query. */
  evicted: string[];
}

async function deallocate(client: pg.ClientBase, name: string): Promise<void> {
  // A statement whose preparation failed was never created: nothing to drop.
  if (!isPrepared(client, name)) return;
  // The name is a digest of ours (letters, digits, underscore), never text from a request.
  await client.query(`DEALLOCATE "${name}"`);
  // pg would otherwise run the name again without preparing it (src/patches/pg-parsed-statements.ts).
  forgetPrepared(client, name);
}
