import {
  BadRequestException,
  GoneException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  OnModuleDestroy,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { PermissionsService } from '../auth/permissions.service.js';
import { formatOid } from '../catalog/oid.js';
import { Clock } from '../common/clock.js';
import { PeriodicTask } from '../common/periodic-task.js';
import type { WithoutRuntime } from '../common/answers-runtime.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { CloseResponseDto, QueryItem, QueryItemDto, QueryPageDto } from './dto/query-response.dto.js';
import type { AssociationName } from './associations/association-names.js';
import { ASSOCIATION_LOADER, type AssociationLoader } from './associations/query-associations.port.js';
import { checkFields, fieldsReads, fieldValue, OID_FIELD } from './query-fields.js';
import type { ReplyShape } from './query-params.js';
import { compileOrder, compileWhere, numberOrderScan } from './q/q-compile.js';
import type { Catalog } from '../catalog/catalog.js';
import { CatalogService } from '../catalog/catalog.service.js';
import type { ParsedQuery } from './q/q-model.js';
import { parseQuery } from './q/q-parse.js';
import { refuseNul } from './q/q-text.js';
import { QueryRepository, toPrismaSql, type ItemRow, type PosRange } from './query.repository.js';

export interface Paging {
  page: number;
  start: number;
  limit: number;
}

/**
 * Where a page starts (0-based): start + page × limit; but when start is page × limit, at start.
 * ExtJS sends both, zero-based page and its offset (`page=1&start=25&limit=25`): read as a sum,
 * that pair would skip a page. A pair that is not consistent keeps the sum.
 */
export function firstPosition({ page, start, limit }: Paging): number {
  return page > 0 && start === page * limit ? start : start + page * limit;
}

/** The largest snapshot position (PostgreSQL integer). */
const MAX_POSITION = 2_147_483_647;

/** The parsed `q`; a QError (400, see input-error.ts) when it is not a valid query. */
function parseOrRefuse(q: unknown[], catalog: Catalog): ParsedQuery {
  const parsed = parseQuery(q, catalog);
  refuseNul(parsed);
  return parsed;
}

function numberOrder(parsed: ParsedQuery) {
  const scan = numberOrderScan(parsed);
  return scan && { ...scan, where: toPrismaSql(scan.where) };
}

/** Paged query sessions (interface spec 3 and 4.4) over the `q` language. */
@Injectable()
export class QueryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('QueryService');
  /** Deletes expired sessions, every QUERY_SESSION_TTL_MS (between a second and a minute). */
  private readonly sweeper: PeriodicTask;

  constructor(
    private readonly repo: QueryRepository,
    private readonly permissions: PermissionsService,
    private readonly catalog: CatalogService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    // QueryModule binds it; a test module that never asks for associations may leave it out.
    @Optional() @Inject(ASSOCIATION_LOADER) private readonly associations?: AssociationLoader,
  ) {
    this.sweeper = new PeriodicTask({
      name: 'sweeping expired query sessions',
      intervalMs: Math.min(Math.max(config.querySessionTtlMs, 1000), 60_000),
      run: () => this.sweep(),
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.sweeper.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.sweeper.stop();
  }

  /** Deletes the sessions idle longer than QUERY_SESSION_TTL_MS; returns how many. */
  async sweep(): Promise<number> {
    return this.repo.sweep(this.config.querySessionTtlMs);
  }

  async open(
    user: AuthUser,
    q: unknown[],
    paging: Paging,
    base: string,
    shape: ReplyShape = { fields: null, associations: null },
  ): Promise<WithoutRuntime<QueryPageDto>> {
    const range = this.range(paging);
    const catalog = await this.catalog.current();
    const parsed = parseOrRefuse(q, catalog);
    checkFields(catalog, shape.fields);
    const query = parsed.parts.map((p) => p.normalized);
    const readable = await this.permissions.readableContainerIds(user);
    const maxOpen = this.config.querySessionsPerUser;
    const { id, total, items } = await this.repo.snapshot({
      userId: user.id,
      query,
      shape,
      where: toPrismaSql(compileWhere(parsed)),
      order: toPrismaSql(compileOrder(parsed.sort)),
      numberOrder: numberOrder(parsed),
      readable,
      ttlMs: this.config.querySessionTtlMs,
      maxOpen,
      range: range ?? { from: 1, to: 0 },
      keep: (total, open) => {
        // The reply holds every match: all of them from position 1, or there are none.
        if (total === 0 || (range?.from === 1 && total <= paging.limit)) return false;
        if (open >= maxOpen) {
          throw new HttpException(
            `at most ${maxOpen} query sessions may be open per user: close one (DELETE /query/1.0/query/<session_id>) or let one expire`,
            HttpStatus.TOO_MANY_REQUESTS,
          );
        }
        return true;
      },
    });
    return this.reply(id, query, total, paging, await this.present(items, shape, user, readable, base));
  }

  async page(
    user: AuthUser,
    sessionIdText: string,
    paging: Paging,
    close: boolean,
    base: string,
  ): Promise<WithoutRuntime<QueryPageDto>> {
    const sessionId = this.sessionId(sessionIdText);
    const range = this.range(paging);
    const readable = await this.permissions.readableContainerIds(user);
    const ttl = this.config.querySessionTtlMs;
    let found = !close && range ? await this.repo.touchAndRead(sessionId, user.id, range, readable, ttl) : null;
    if (!found) {
      const looked = await this.repo.page(sessionId, user.id, range, readable, ttl, close);
      if (looked.state !== 'open') this.throwNotOpen(looked.state, sessionId);
      found = looked;
    }
    const shape = { fields: found.fields, associations: found.associations as AssociationName[] | null };
    const items = await this.present(found.items, shape, user, readable, base);
    return this.reply(sessionId, found.query as object[], found.total, paging, items);
  }

  async close(user: AuthUser, sessionIdText: string): Promise<CloseResponseDto> {
    const sessionId = this.sessionId(sessionIdText);
    const found = await this.repo.page(sessionId, user.id, null, [], this.config.querySessionTtlMs, true);
    if (found.state !== 'open') this.throwNotOpen(found.state, sessionId);
    return { success: true, session_id: Number(sessionId), session: Number(sessionId) };
  }

  private throwNotOpen(state: 'missing' | 'closed' | 'expired', sessionId: bigint): never {
    if (state === 'missing') throw new NotFoundException(`no query session ${sessionId}`);
    if (state === 'closed') throw new GoneException(`query session ${sessionId} is closed`);
    throw new GoneException(
      `query session ${sessionId} has expired (idle longer than ${this.config.querySessionTtlMs / 1000} s)`,
    );
  }

  private sessionId(text: string): bigint {
    if (!/^[0-9]{1,18}$/.test(text))
      throw new BadRequestException(`session_id must be a positive integer, not "${text}"`);
    const id = BigInt(text);
    if (id === 0n) {
      throw new BadRequestException('session_id 0 is not a session: it means the whole result fit into one reply');
    }
    return id;
  }

  /** 1-based snapshot positions of the page, or null when it lies past any possible result. */
  private range(paging: Paging): PosRange | null {
    const { limit } = paging;
    if (limit > this.config.queryMaxLimit) {
      throw new BadRequestException(`limit must not be greater than ${this.config.queryMaxLimit}`);
    }
    const first = firstPosition(paging);
    if (!Number.isSafeInteger(first + limit) || first >= MAX_POSITION) return null;
    // Positions are integer columns: a page reaching past the last possible one ends there.
    return { from: first + 1, to: Math.min(first + limit, MAX_POSITION) };
  }

  private reply(
    sessionId: bigint,
    query: object[],
    total: number,
    paging: Paging,
    items: QueryItem[],
  ): WithoutRuntime<QueryPageDto> {
    return {
      success: true,
      session_id: Number(sessionId),
      session: Number(sessionId),
      query,
      total,
      total_count: total,
      page: paging.page,
      start: paging.start,
      limit: paging.limit,
      count: items.length,
      items,
    };
  }

  /**
   * The items of a reply: the default item, or the fields asked for (one statement per class
   * among the rows); then an array per association asked for (one call of the loader).
   */
  private async present(
    rows: ItemRow[],
    shape: ReplyShape,
    user: AuthUser,
    readable: number[] | null,
    base: string,
  ): Promise<QueryItem[]> {
    const items: QueryItem[] = shape.fields
      ? await this.picked(rows, shape.fields, user, readable)
      : rows.map((r) => this.item(r, base));
    if (shape.associations && rows.length) {
      if (!this.associations) throw new Error('no association loader is bound (ASSOCIATION_LOADER)');
      const names = shape.associations;
      const loaded = await this.associations.load(
        names,
        rows.map((r) => ({ id: r.id, cls: r.cls })),
        readable,
        base,
      );
      rows.forEach((r, i) => {
        const found = loaded.get(r.id);
        const item = items[i] as Record<string, unknown>;
        for (const name of names) item[name] = found?.[name] ?? [];
      });
    }
    return items;
  }

  /** Items of oid and the fields asked for, each null where the object's class has no such property. */
  private async picked(
    rows: ItemRow[],
    fields: string[],
    user: AuthUser,
    readable: number[] | null,
  ): Promise<QueryItem[]> {
    const catalog = await this.catalog.current();
    const now = this.clock.now();
    const reads = fieldsReads(catalog, fields, rows, { user, readable, now });
    const values = new Map<number, Map<string, unknown>>();
    for (const read of reads) {
      for (const row of await this.repo.readFields(read.sql)) {
        const byName = new Map<string, unknown>();
        read.names.forEach((name, k) => byName.set(name, fieldValue(row[`c${k + 2}`])));
        values.set(Number(row.c1), byName);
      }
    }
    return rows.map((r) => {
      const item: Record<string, unknown> = { oid: formatOid(r.cls, r.id) };
      const found = values.get(r.id);
      for (const name of fields) if (name !== OID_FIELD) item[name] = found?.get(name) ?? null;
      return item as QueryItem;
    });
  }

  private item(r: ItemRow, base: string): QueryItemDto {
    const oid = formatOid(r.cls, r.id);
    return {
      oid,
      type: r.cls,
      subtype: r.subtype,
      number: r.number,
      name: r.name,
      version: r.version,
      iteration: r.iteration,
      state: r.state,
      latest: r.latest,
      container: { oid: formatOid(r.containerClass, r.containerId), name: r.containerName },
      createdBy: r.createdBy,
      created: r.createdAt.toISOString(),
      modified: r.modifiedAt.toISOString(),
      url: `${base}/files/${oid}`,
    };
  }
}
