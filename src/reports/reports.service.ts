import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  GatewayTimeoutException,
  Inject,
  Injectable,
  NotFoundException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { PermissionsService } from '../auth/permissions.service.js';
import type { Catalog } from '../catalog/catalog.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { formatOid, OidClass, parseOid } from '../catalog/oid.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import {
  compileTemplate,
  templateLayout,
  QmlLimitError,
  QueryCache,
  templateColumns,
  type CompiledQuery,
  type QmlLimitName,
  type QmlLimits,
  type QmlTemplate,
  type ReadableScope,
} from '../qml/qml-compiler.js';
import { likePattern } from '../common/wildcard.js';
import type { TemplateDetailsDto } from './dto/template-details.dto.js';
import { cell, headingTags, type ReportResult } from './report-format.js';
import { HttpErrorWithHeaders } from '../common/http-errors.js';
import {
  ReportDataError,
  ReportSlotsTakenError,
  ReportsRepository,
  ReportTimeoutError,
  TemplateNameTakenError,
  type TemplateRow,
} from './reports.repository.js';
import { ReportAdmission, reservedReportConnections } from './report-admission.js';
import { TemplateCache } from './template-cache.js';

export interface ListQuery {
  name?: string;
  limit?: string;
  container?: string;
}

export interface Execution {
  result: ReportResult;
  parameters: { name: string; value: string | null }[];
}

/** A named template's run, with the template and the parameter values the request gave. */
export interface NamedRun extends Execution {
  row: TemplateRow;
  given: Record<string, string>;
}

const NAME_MAX = 200;
/** Retry-After of a report refused for the per-user limit: most reports take well under this. */
const RETRY_AFTER_S = 1;

/** The setting that raises each compiler limit, named in the 400 past it. */
const LIMIT_SETTINGS: Record<QmlLimitName, string> = {
  maxTables: 'REPORT_MAX_TABLES',
  maxSelectItems: 'REPORT_MAX_SELECT_ITEMS',
  maxListValues: 'REPORT_MAX_LIST_VALUES',
  maxNesting: 'REPORT_MAX_NESTING',
  boundValues: 'REPORT_MAX_LIST_VALUES',
};

/** Report templates and their execution: access rules, compilation, limits. */
@Injectable()
export class ReportsService {
  private readonly templates = new TemplateCache();
  /** The rendered SQL of each template per parameter shape (entries go with the compiled template). */
  private readonly queries = new QueryCache();
  private readonly limits: QmlLimits;
  /** Reports one user may run at once: see perUserReports. */
  private readonly perUser: number;
  /** This instance's report pool shared among users (null: nothing kept for others). */
  private readonly admission: ReportAdmission | null;

  constructor(
    private readonly repo: ReportsRepository,
    private readonly permissions: PermissionsService,
    private readonly catalogs: CatalogService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.limits = {
      maxTables: config.reportMaxTables,
      maxSelectItems: config.reportMaxSelectItems,
      maxListValues: config.reportMaxListValues,
      maxNesting: config.reportMaxNesting,
    };
    this.perUser = perUserReports(config);
    const reserved = reservedReportConnections(config);
    this.admission = reserved > 0 ? new ReportAdmission(config.dbPoolMax, reserved) : null;
  }

  async list(user: AuthUser, q: ListQuery): Promise<{ oid: string; name: string }[]> {
    let limit: number | null = null;
    if (q.limit !== undefined && q.limit !== '') {
      if (!/^\d{1,9}$/.test(q.limit) || Number(q.limit) < 1) {
        throw new BadRequestException(`limit must be a positive integer, not "${q.limit}"`);
      }
      limit = Number(q.limit);
    }
    const rows = await this.repo.list({
      namePattern: q.name === undefined || q.name === '' ? null : likePattern(q.name, 'names'),
      containerName: q.container === undefined || q.container === '' ? null : q.container,
      containerIds: await this.permissions.readableContainerIds(user),
      limit,
    });
    return rows.map((r) => ({ oid: formatOid(OidClass.report, r.id), name: r.name }));
  }

  async details(user: AuthUser, oidText: string): Promise<TemplateDetailsDto> {
    const oid = parseOid(oidText);
    const row = oid && oid.cls === OidClass.report ? await this.repo.findById(oid.id) : null;
    if (!row || !(await this.permissions.canRead(user, row.containerId))) {
      throw new NotFoundException(`no report template with OID ${oidText}`);
    }
    return this.describe(row, await this.catalogs.current());
  }

  async runInline(
    user: AuthUser,
    body: unknown,
    contentType: string | undefined,
    values: Record<string, string>,
  ): Promise<Execution> {
    const qml = qmlBody(body, contentType);
    const catalog = await this.catalogs.current();
    const template = this.templates.inlineTemplate(qml, catalog, () => this.compile(qml, catalog));
    return this.execute(user, template, values);
  }

  async findReadable(user: AuthUser, name: string): Promise<TemplateRow> {
    const row = await this.repo.findByName(name);
    if (!row || !(await this.permissions.canRead(user, row.containerId))) {
      throw new NotFoundException(`no report template named "${name}"`);
    }
    return row;
  }

  async runNamed(user: AuthUser, row: TemplateRow, values: Record<string, string>): Promise<Execution> {
    return this.execute(user, this.compiledTemplate(row, await this.catalogs.current()), values);
  }

  /** Runs the template of that name, if the caller may read it, with the values given. */
  async runByName(user: AuthUser, name: string, given: Record<string, string>): Promise<NamedRun> {
    const row = await this.findReadable(user, name);
    return { row, given, ...(await this.runNamed(user, row, given)) };
  }

  /** Creates or replaces a template after compiling it; managers of its container and admins only. */
  async put(
    user: AuthUser,
    name: string,
    body: unknown,
    contentType: string | undefined,
    opts: { container?: string; description?: string },
  ): Promise<{ created: boolean; details: TemplateDetailsDto }> {
    if (name.trim() === '' || name.length > NAME_MAX || /[\u0000-\u001F\u007F]/.test(name)) {
      throw new BadRequestException(`a report name has 1 to ${NAME_MAX} characters and no control characters`);
    }
    if (name === 'version')
      throw new BadRequestException('"version" is reserved: GET /reports/version is the version record');
    const qml = qmlBody(body, contentType);
    const catalog = await this.catalogs.current();
    this.compile(qml, catalog);
    const container = opts.container ? await this.container(user, opts.container) : null;
    const existing = await this.repo.findByName(name);
    if (existing && (await this.permissions.canRead(user, existing.containerId))) {
      return { created: false, details: await this.replace(user, existing, container, opts.description, qml) };
    }
    // A name taken in a container the caller cannot read is free in their view: they get the
    // answers of a create, up to the conflict that create would meet (never the container).
    if (!container)
      throw new BadRequestException('parameter "container" (a container name) is required to create a report template');
    await this.requireManage(user, container.id, container.name);
    if (existing) throw nameTaken(name);
    let row: TemplateRow;
    try {
      row = await this.repo.create(
        { name, containerId: container.id, description: opts.description ?? null, qml },
        user.id,
      );
    } catch (e) {
      // Another request created it between the look-up above and this insert.
      if (e instanceof TemplateNameTakenError) throw nameTaken(name);
      throw e;
    }
    return { created: true, details: this.describe(row, catalog) };
  }

  private async replace(
    user: AuthUser,
    existing: TemplateRow,
    container: { id: number; name: string } | null,
    description: string | undefined,
    qml: string,
  ): Promise<TemplateDetailsDto> {
    await this.requireManage(user, existing.containerId, existing.containerName);
    if (container) await this.requireManage(user, container.id, container.name);
    const row = await this.repo.update(
      existing.id,
      { containerId: container?.id ?? existing.containerId, description: description ?? existing.description, qml },
      user.id,
    );
    return this.describe(row, await this.catalogs.current());
  }

  async remove(user: AuthUser, name: string): Promise<void> {
    const row = await this.findReadable(user, name);
    await this.requireManage(user, row.containerId, row.containerName);
    await this.repo.delete(row.id, user.id);
    this.templates.forget(row.id);
  }

  private async container(user: AuthUser, name: string): Promise<{ id: number; name: string }> {
    const c = await this.repo.findContainerByName(name);
    if (!c || !(await this.permissions.canRead(user, c.id)))
      throw new NotFoundException(`no container named "${name}"`);
    return c;
  }

  private async requireManage(user: AuthUser, containerId: number, containerName: string): Promise<void> {
    if (!(await this.permissions.canManage(user, containerId))) {
      throw new ForbiddenException(
        `only managers of container "${containerName}" and administrators may change its report templates`,
      );
    }
  }

  private compile(qml: string, catalog: Catalog): QmlTemplate {
    try {
      return compileTemplate(qml, { maxBytes: this.config.xmlBodyLimit, limits: this.limits, catalog });
    } catch (e) {
      throw withLimitSetting(e);
    }
  }

  private compiledTemplate(row: TemplateRow, catalog: Catalog): QmlTemplate {
    return this.templates.storedTemplate(row.id, row.qml, catalog, () => this.compile(row.qml, catalog));
  }

  private describe(row: TemplateRow, catalog: Catalog): TemplateDetailsDto {
    const template = this.compiledTemplate(row, catalog);
    const columns = templateColumns(template);
    const tags = headingTags(columns.map((c) => c.heading));
    return {
      oid: formatOid(OidClass.report, row.id),
      name: row.name,
      description: row.description,
      container: row.containerName,
      created: row.createdAt.toISOString(),
      modified: row.modifiedAt.toISOString(),
      parameters: template.parameters.map((p) => ({
        name: p.name,
        type: p.declaredType,
        default: p.default?.text ?? null,
        isMacro: p.default?.isMacro ?? false,
      })),
      layout: templateLayout(template),
      reportAttributes: (template.reportAttributes ?? []).map((a) => ({
        id: a.id,
        heading: a.heading,
        column: a.selected,
        input: a.kind === 'input',
        userCanConstrain: a.userCanConstrain,
        defaultValue: a.defaultValue,
        constantValue: a.constantValue,
        isMacro: a.isMacro,
      })),
      headings: columns.map((c, i) => ({ heading: c.heading, tag: tags[i], type: c.typeName })),
      warnings: template.warnings.map((w) => ({ path: w.path, message: w.message })),
      qml: row.qml,
    };
  }

  private async execute(user: AuthUser, template: QmlTemplate, values: Record<string, string>): Promise<Execution> {
    const max = this.config.reportMaxRows;
    const onReplica = this.repo.replicaUsable;
    let query: CompiledQuery;
    try {
      query = this.queries.build(
        template,
        {
          values,
          user,
          readable: await this.readable(user, onReplica),
          now: new Date(),
          limit: max + 1,
        },
        this.limits,
      );
    } catch (e) {
      throw withLimitSetting(e);
    }
    let rows: unknown[][];
    // A place on this instance's report pool, or the 429 of a user past their share.
    const end = this.admission ? this.admission.admit(user.id) : () => undefined;
    try {
      rows = await this.repo.execute(
        query.sql,
        this.perUser > 0 ? { userId: user.id, max: this.perUser } : null,
        query.genericPlan,
        onReplica,
      );
    } catch (e) {
      if (e instanceof ReportSlotsTakenError) {
        throw new HttpErrorWithHeaders(
          429,
          `you already run ${this.perUser} report(s), as many as one user may run at the same time (REPORT_MAX_CONCURRENT_PER_USER); retry when one has finished`,
          { 'Retry-After': String(RETRY_AFTER_S) },
        );
      }
      if (e instanceof ReportTimeoutError) {
        throw new GatewayTimeoutException(
          `the report query ran longer than REPORT_TIMEOUT_MS (${this.config.reportTimeoutMs} ms) and was cancelled`,
        );
      }
      if (e instanceof ReportDataError)
        throw new BadRequestException(`the report query failed on its values: ${e.message}`);
      throw e;
    } finally {
      end();
    }
    const n = query.columns.length;
    const out: ReportResult['rows'] = new Array(Math.min(rows.length, max));
    for (let r = 0; r < out.length; r++) {
      const src = rows[r];
      for (let i = 0; i < n; i++) src[i] = cell(src[i]);
      out[r] = src as ReportResult['rows'][number];
    }
    return {
      result: { columns: query.columns, rows: out, truncated: rows.length > max },
      parameters: query.parameters,
    };
  }

  /**
   * The containers a report shows the caller, as the compiler takes them. On the primary, the
   * caller's access roles (own memberships and groups' roles, access_roles) are read inside the
   * report query itself (half the cost of a small report, against a query of its own before
   * it). On a replica they may lag behind the primary, where roles are granted and revoked: the ids are then read on the primary
   * and bound into the query (docs/deployment.md).
   */
  private async readable(user: AuthUser, onReplica: boolean): Promise<ReadableScope> {
    if (user.admin) return null;
    if (!onReplica) return { memberOf: user.id };
    return (await this.permissions.readableContainerIds(user)) ?? [];
  }
}

/**
 * Reports one user may run at once, on all instances together: REPORT_MAX_CONCURRENT_PER_USER,
 * but fewer than the report pool's DB_POOL_MAX connections, so one user never takes the whole
 * pool of an instance (except with a pool of one, the embedded database, where reports queue).
 * 0 (the setting 0): no limit, no slots taken (load tests of one user, single-user deployments).
 */
export function perUserReports(config: Pick<AppConfig, 'reportMaxConcurrentPerUser' | 'dbPoolMax'>): number {
  if (config.reportMaxConcurrentPerUser === 0) return 0;
  return Math.max(1, Math.min(config.reportMaxConcurrentPerUser, config.dbPoolMax - 1));
}

/** The 409 of a create whose name is taken (in any container: which one is not said). */
function nameTaken(name: string): ConflictException {
  return new ConflictException(`a report template named "${name}" exists already; nothing was stored`);
}

/**
 * A limit's error with the setting that raises it (REPORT_MAX_…), which only this service knows.
 * Other compiler errors are answered 400 by the exception filter (common/input-error.ts).
 */
function withLimitSetting(e: unknown): unknown {
  return e instanceof QmlLimitError ? new BadRequestException(`${e.message} (${LIMIT_SETTINGS[e.limit]})`) : e;
}

/** Request parameters as report parameter values: one string each. */
export function parameterValues(source: Record<string, unknown>, skip: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(source)) {
    if (skip.includes(k)) continue;
    if (typeof v === 'string') out[k] = v;
    else if (Array.isArray(v))
      throw new BadRequestException(`parameter "${k}" is given ${v.length} times; give it once`);
    else throw new BadRequestException(`parameter "${k}" must be a plain value`);
  }
  return out;
}

const XML_TYPE = /^(text\/xml|application\/xml|application\/[\w.+-]+\+xml)\s*(;|$)/i;

/** The QML text of a request body: XML content types only, UTF-8 only. */
function qmlBody(body: unknown, contentType: string | undefined): string {
  const type = contentType ?? '';
  if (!XML_TYPE.test(type)) {
    throw new UnsupportedMediaTypeException('send the QML document with Content-Type text/xml or application/xml');
  }
  const charset = /charset\s*=\s*"?([\w-]+)"?/i.exec(type)?.[1]?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw new UnsupportedMediaTypeException(`QML documents are UTF-8, not ${charset}`);
  }
  if (typeof body !== 'string' || body.trim() === '') throw new BadRequestException('the QML document is empty');
  return body;
}
