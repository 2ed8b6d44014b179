import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';
import { createPgPool } from '../prisma/pg-pool.js';
import { PrismaService } from '../prisma/prisma.service.js';

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

/** report_templates, and the execution of compiled report queries. */
@Injectable()
export class ReportsRepository implements OnModuleDestroy {
  private readonly pool: pg.Pool | null;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.pool =
      config.dbPoolMax > 1
        ? createPgPool(config, { statementTimeoutMs: config.reportTimeoutMs, readOnly: true })
        : null;
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

  async create(data: {
    name: string;
    containerId: number;
    description: string | null;
    qml: string;
  }): Promise<TemplateRow> {
    return toRow(await this.prisma.reportTemplate.create({ data, select: TEMPLATE_SELECT }));
  }

  async update(
    id: number,
    data: { containerId: number; description: string | null; qml: string },
  ): Promise<TemplateRow> {
    return toRow(
      await this.prisma.reportTemplate.update({
        where: { id },
        data: { ...data, modifiedAt: new Date() },
        select: TEMPLATE_SELECT,
      }),
    );
  }

  async delete(id: number): Promise<void> {
    await this.prisma.reportTemplate.delete({ where: { id } });
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
   */
  async execute(sql: Prisma.Sql): Promise<unknown[][]> {
    const query = { text: sql.text, values: sql.values, rowMode: 'array' as const, types: REPORT_TYPES };
    try {
      return this.pool ? (await this.pool.query<unknown[]>(query)).rows : await this.inTransaction(query);
    } catch (e) {
      const state = sqlState(e);
      if (state?.code === '57014') throw new ReportTimeoutError();
      if (state?.code.startsWith('22')) throw new ReportDataError(state.message);
      throw e;
    }
  }

  private async inTransaction(query: pg.QueryConfig & { rowMode: 'array' }): Promise<unknown[][]> {
    const client = await this.prisma.pgPool.connect();
    let rows: unknown[][];
    try {
      await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${this.config.reportTimeoutMs}`);
      rows = (await client.query<unknown[]>(query)).rows;
    } catch (e) {
      await client.query('ROLLBACK').then(
        () => client.release(),
        (rollback: Error) => client.release(rollback),
      );
      throw e;
    }
    // The rows are complete: the answer need not wait for the end of a read-only transaction.
    // The connection goes back to the pool once it has ended (or is dropped if that fails).
    void client.query('COMMIT').then(
      () => client.release(),
      (e: Error) => client.release(e),
    );
    return rows;
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool?.end();
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

/** The SQLSTATE of a PostgreSQL error, however the driver adapter wrapped it. */
function sqlState(e: unknown): { code: string; message: string } | null {
  for (let cur: unknown = e, depth = 0; cur && typeof cur === 'object' && depth < 5; depth++) {
    const o = cur as {
      code?: unknown;
      originalCode?: unknown;
      originalMessage?: unknown;
      message?: unknown;
      meta?: unknown;
      cause?: unknown;
    };
    const message = typeof o.originalMessage === 'string' ? o.originalMessage : String(o.message ?? '');
    for (const c of [o.originalCode, o.code]) {
      if (typeof c === 'string' && /^[0-9A-Z]{5}$/.test(c) && !c.startsWith('P')) return { code: c, message };
    }
    const meta = o.meta as { code?: unknown; message?: unknown } | undefined;
    if (meta && typeof meta.code === 'string' && /^[0-9A-Z]{5}$/.test(meta.code)) {
      return { code: meta.code, message: String(meta.message ?? message) };
    }
    if (/statement timeout/.test(message)) return { code: '57014', message };
    cur = o.cause;
  }
  return null;
}
