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
} from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { PermissionsService } from '../auth/permissions.service.js';
import { formatOid } from '../catalog/oid.js';
import { PeriodicTask } from '../common/periodic-task.js';
import type { WithoutRuntime } from '../common/answers-runtime.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { CloseResponseDto, QueryItemDto, QueryPageDto } from './dto/query-response.dto.js';
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

  async open(user: AuthUser, q: unknown[], paging: Paging, base: string): Promise<WithoutRuntime<QueryPageDto>> {
    const range = this.range(paging);
    const parsed = parseOrRefuse(q, await this.catalog.current());
    const query = parsed.parts.map((p) => p.normalized);
    const readable = await this.permissions.readableContainerIds(user);
    const maxOpen = this.config.querySessionsPerUser;
    const { id, total, items } = await this.repo.snapshot({
      userId: user.id,
      query,
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
    return this.reply(id, query, total, paging, items, base);
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
    if (!close && range) {
      const page = await this.repo.touchAndRead(sessionId, user.id, range, readable, ttl);
      if (page) return this.reply(sessionId, page.query as object[], page.total, paging, page.items, base);
    }
    const found = await this.repo.page(sessionId, user.id, range, readable, ttl, close);
    if (found.state !== 'open') this.throwNotOpen(found.state, sessionId);
    return this.reply(sessionId, found.query as object[], found.total, paging, found.items, base);
  }

  async close(user: AuthUser, sessionIdText: string): Promise<CloseResponseDto> {
    const sessionId = this.sessionId(sessionIdText);
    const found = await this.repo.page(sessionId, user.id, null, [], this.config.querySessionTtlMs, true);
    if (found.state !== 'open') this.throwNotOpen(found.state, sessionId);
    return { success: true, session_id: Number(sessionId) };
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
  private range({ page, start, limit }: Paging): PosRange | null {
    if (limit > this.config.queryMaxLimit) {
      throw new BadRequestException(`limit must not be greater than ${this.config.queryMaxLimit}`);
    }
    const first = start + page * limit;
    if (!Number.isSafeInteger(first + limit) || first >= MAX_POSITION) return null;
    // Positions are integer columns: a page reaching past the last possible one ends there.
    return { from: first + 1, to: Math.min(first + limit, MAX_POSITION) };
  }

  private reply(
    sessionId: bigint,
    query: object[],
    total: number,
    paging: Paging,
    rows: ItemRow[],
    base: string,
  ): WithoutRuntime<QueryPageDto> {
    const items = rows.map((r) => this.item(r, base));
    return {
      session_id: Number(sessionId),
      query,
      total,
      page: paging.page,
      start: paging.start,
      limit: paging.limit,
      count: items.length,
      items,
    };
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
