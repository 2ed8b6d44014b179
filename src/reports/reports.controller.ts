import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  NotAcceptableException,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiGatewayTimeoutResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Readable } from 'node:stream';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiQmlBody, ApiVersion } from '../common/api-docs.decorators.js';
import { ErrorEnvelopeDto } from '../common/error-envelope.dto.js';
import { formatOid, OidClass } from '../common/oid.js';
import { baseUrl } from '../common/public-url.js';
import { startRuntime } from '../common/runtime.js';
import { versionRecord, type VersionRecord } from '../common/version.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ReportListDto } from './dto/report-list.dto.js';
import { NamedReportResultDto, QueryResultDto } from './dto/query-result.dto.js';
import { TemplateDetailsDto } from './dto/template-details.dto.js';
import { csvChunks, headingTags, negotiateFormat, xmlChunks } from './report-format.js';
import { parameterValues, ReportsService } from './reports.service.js';

@ApiTags('reports')
@ApiAuthenticated()
@ApiBadRequestResponse({
  description: 'invalid QML, parameter or value; the message names the element',
  type: ErrorEnvelopeDto,
})
@Controller('reports')
export class ReportsController {
  constructor(
    private readonly reports: ReportsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('version')
  @ApiVersion('reports')
  version(): VersionRecord {
    return versionRecord();
  }

  @Get()
  @ApiOperation({ summary: 'List the report templates the caller may read' })
  @ApiQuery({
    name: 'name',
    required: false,
    description: 'Name pattern: * any characters, ? one character',
    example: 'Doc*',
  })
  @ApiQuery({ name: 'limit', required: false, description: 'Most items to return', example: 10 })
  @ApiQuery({
    name: 'container',
    required: false,
    description: 'Only templates of this container',
    example: 'Drive Unit',
  })
  @ApiOkResponse({ type: ReportListDto })
  async list(
    @CurrentUser() user: AuthUser,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
  ): Promise<ReportListDto> {
    const runtime = startRuntime();
    const str = (k: string) => (typeof query[k] === 'string' ? (query[k] as string) : undefined);
    const rows = await this.reports.list(user, { name: str('name'), limit: str('limit'), container: str('container') });
    const base = `${baseUrl(req, this.config)}/reports`;
    const items = rows.map((r) => ({
      url: `${base}/${encodeURIComponent(r.name)}`,
      report_url: `${base}/api/1.0/templates/${encodeURIComponent(r.oid)}`,
      oid: r.oid,
      name: r.name,
    }));
    return { count: items.length, items, _runtime: runtime() };
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Run an inline QML query; URL parameters give its parameter values' })
  @ApiQmlBody()
  @ApiOkResponse({ type: QueryResultDto })
  @ApiGatewayTimeoutResponse({ description: 'the query ran past REPORT_TIMEOUT_MS', type: ErrorEnvelopeDto })
  async runInline(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
  ): Promise<QueryResultDto> {
    const runtime = startRuntime();
    const { result } = await this.reports.runInline(user, body, req.get('content-type'), parameterValues(query));
    return {
      count: result.rows.length,
      items: result.rows,
      ...(result.truncated ? { truncated: true } : {}),
      _runtime: runtime(),
    };
  }

  @Get('api/1.0/templates/:oid')
  @ApiOperation({ summary: 'Details of a report template: parameters, headings, QML' })
  @ApiParam({ name: 'oid', example: 'OR:wt.query.template.ReportTemplate:1' })
  @ApiOkResponse({ type: TemplateDetailsDto })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto })
  details(@CurrentUser() user: AuthUser, @Param('oid') oid: string): Promise<TemplateDetailsDto> {
    return this.reports.details(user, oid);
  }

  @Get(':name')
  @ApiOperation({ summary: 'Execute a named report; URL parameters give its parameter values' })
  @ApiParam({ name: 'name', description: 'Report name, URL-encoded', example: 'Documents by number' })
  @ApiQuery({
    name: 'format',
    required: false,
    enum: ['xml', 'json', 'csv'],
    description: 'Result format (else Accept; XML by default)',
  })
  @ApiProduces('application/xml', 'application/json', 'text/csv')
  @ApiOkResponse({ description: 'queryResult XML by default; JSON or CSV on request', type: NamedReportResultDto })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto })
  @ApiGatewayTimeoutResponse({ description: 'the query ran past REPORT_TIMEOUT_MS', type: ErrorEnvelopeDto })
  runNamedGet(
    @CurrentUser() user: AuthUser,
    @Param('name') name: string,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
  ): Promise<NamedReportResultDto | StreamableFile> {
    return this.runNamed(user, name, query, {}, req);
  }

  @Post(':name')
  @HttpCode(200)
  @ApiOperation({ summary: 'Execute a named report; parameters as URL parameters or form fields' })
  @ApiParam({ name: 'name', description: 'Report name, URL-encoded', example: 'Documents by number' })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiProduces('application/xml', 'application/json', 'text/csv')
  @ApiOkResponse({ description: 'queryResult XML by default; JSON or CSV on request', type: NamedReportResultDto })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto })
  runNamedPost(
    @CurrentUser() user: AuthUser,
    @Param('name') name: string,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
    @Req() req: Request,
  ): Promise<NamedReportResultDto | StreamableFile> {
    const form = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    return this.runNamed(user, name, query, form, req);
  }

  @Put(':name')
  @ApiOperation({ summary: 'Create or replace a report template (managers of its container, administrators)' })
  @ApiParam({ name: 'name', description: 'Report name, URL-encoded', example: 'My report' })
  @ApiQuery({
    name: 'container',
    required: false,
    description: 'Container name; required to create',
    example: 'Drive Unit',
  })
  @ApiQuery({ name: 'description', required: false, example: 'What the report shows' })
  @ApiQmlBody()
  @ApiCreatedResponse({ description: 'created', type: TemplateDetailsDto })
  @ApiOkResponse({ description: 'replaced', type: TemplateDetailsDto })
  @ApiForbiddenResponse({ type: ErrorEnvelopeDto })
  async put(
    @CurrentUser() user: AuthUser,
    @Param('name') name: string,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TemplateDetailsDto> {
    const str = (k: string) => (typeof query[k] === 'string' ? (query[k] as string) : undefined);
    const { created, details } = await this.reports.put(user, name, body, req.get('content-type'), {
      container: str('container'),
      description: str('description'),
    });
    res.status(created ? 201 : 200);
    return details;
  }

  @Delete(':name')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a report template (managers of its container, administrators)' })
  @ApiParam({ name: 'name', description: 'Report name, URL-encoded', example: 'My report' })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto })
  @ApiForbiddenResponse({ type: ErrorEnvelopeDto })
  async remove(@CurrentUser() user: AuthUser, @Param('name') name: string): Promise<void> {
    await this.reports.remove(user, name);
  }

  private async runNamed(
    user: AuthUser,
    name: string,
    query: Record<string, unknown>,
    form: Record<string, unknown>,
    req: Request,
  ): Promise<NamedReportResultDto | StreamableFile> {
    const runtime = startRuntime();
    const requested = form.format ?? query.format;
    if (requested !== undefined && typeof requested !== 'string')
      throw new BadRequestException('format is given more than once');
    const format = negotiateFormat(requested, req.get('accept'));
    if (format === 'bad') throw new BadRequestException(`format must be xml, json or csv, not "${String(requested)}"`);
    if (format === null)
      throw new NotAcceptableException('this report is available as application/xml, application/json or text/csv');
    const row = await this.reports.findReadable(user, name);
    const given = { ...parameterValues(query, ['format']), ...parameterValues(form, ['format']) };
    const { result, parameters } = await this.reports.runNamed(user, row, given);
    if (format === 'json') {
      const tags = headingTags(result.columns.map((c) => c.heading));
      return {
        name: row.name,
        headings: result.columns.map((c, i) => ({ heading: c.heading, tag: tags[i], type: c.typeName })),
        count: result.rows.length,
        items: result.rows,
        ...(result.truncated ? { truncated: true } : {}),
        _runtime: runtime(),
      };
    }
    // CSV and XML are written to the response as they are made, a chunk of rows at a time.
    if (format === 'csv') {
      const chunks = csvChunks(result, { neutralizeFormulas: this.config.csvNeutralizeFormulas });
      return new StreamableFile(Readable.from(chunks), { type: 'text/csv; charset=utf-8' });
    }
    const chunks = xmlChunks(
      {
        name: row.name,
        description: row.description,
        oid: formatOid(OidClass.report, row.id),
        principal: { fullName: user.fullName ?? user.name, oid: formatOid(OidClass.user, user.id) },
        time: new Date(),
        requestParameters: Object.entries(given),
        qml: row.qml,
        actualParameters: parameters,
      },
      result,
    );
    return new StreamableFile(Readable.from(chunks), { type: 'application/xml; charset=utf-8' });
  }
}
