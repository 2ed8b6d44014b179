import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import {
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
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors, ApiQmlBody, ApiQueryKeys, ApiVersion } from '../common/api-docs.decorators.js';
import { ErrorEnvelopeDto } from '../common/error-envelope.dto.js';
import { baseUrl } from '../common/public-url.js';
import { AnswersRuntime, type WithoutRuntime } from '../common/answers-runtime.js';
import { versionRecord, type VersionRecord } from '../common/version.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ReportListDto } from './dto/report-list.dto.js';
import { NamedReportResultDto, QueryResultDto } from './dto/query-result.dto.js';
import { ListReportsQueryDto, NamedReportQueryDto, PutReportQueryDto } from './dto/reports-query.dto.js';
import { TemplateDetailsDto } from './dto/template-details.dto.js';
import { ReportQuery } from './report-query.decorator.js';
import { inlineAnswer, listAnswer, namedAnswer, namedParameters, requestedFormat } from './report-presenter.js';
import { parameterValues, ReportsService } from './reports.service.js';
import { ReadsOnly } from '../auth/reads-only.decorator.js';

@ApiTags('reports')
@ApiAuthenticated()
@ApiErrors({ 400: 'invalid QML, parameter or value; the message names the element' })
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
  @ApiQueryKeys(ListReportsQueryDto)
  @ApiOkResponse({ type: ReportListDto })
  @AnswersRuntime()
  async list(
    @CurrentUser() user: AuthUser,
    @ReportQuery() query: ListReportsQueryDto,
    @Req() req: Request,
  ): Promise<WithoutRuntime<ReportListDto>> {
    const rows = await this.reports.list(user, query);
    return listAnswer(rows, `${baseUrl(req, this.config)}/reports`);
  }

  @Post()
  @ReadsOnly()
  @HttpCode(200)
  @ApiOperation({ summary: 'Run an inline QML query; URL parameters give its parameter values' })
  @ApiQmlBody()
  @ApiOkResponse({ type: QueryResultDto })
  @AnswersRuntime()
  @ApiGatewayTimeoutResponse({ description: 'the query ran past REPORT_TIMEOUT_MS', type: ErrorEnvelopeDto })
  async runInline(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
  ): Promise<WithoutRuntime<QueryResultDto>> {
    const run = await this.reports.runInline(user, body, req.get('content-type'), parameterValues(query));
    return inlineAnswer(run);
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
  @ApiQueryKeys(NamedReportQueryDto)
  @ApiProduces('application/xml', 'application/json', 'text/csv')
  @ApiOkResponse({ description: 'queryResult XML by default; JSON or CSV on request', type: NamedReportResultDto })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto })
  @ApiGatewayTimeoutResponse({ description: 'the query ran past REPORT_TIMEOUT_MS', type: ErrorEnvelopeDto })
  @AnswersRuntime()
  runNamedGet(
    @CurrentUser() user: AuthUser,
    @Param('name') name: string,
    @ReportQuery() url: NamedReportQueryDto,
    @Query() parameters: Record<string, unknown>,
    @Req() req: Request,
  ): Promise<WithoutRuntime<NamedReportResultDto> | StreamableFile> {
    return this.runNamed(user, name, url, parameters, {}, req);
  }

  @Post(':name')
  @ReadsOnly()
  @HttpCode(200)
  @ApiOperation({ summary: 'Execute a named report; parameters as URL parameters or form fields' })
  @ApiParam({ name: 'name', description: 'Report name, URL-encoded', example: 'Documents by number' })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiQueryKeys(NamedReportQueryDto)
  @ApiProduces('application/xml', 'application/json', 'text/csv')
  @ApiOkResponse({ description: 'queryResult XML by default; JSON or CSV on request', type: NamedReportResultDto })
  @ApiNotFoundResponse({ type: ErrorEnvelopeDto })
  @AnswersRuntime()
  runNamedPost(
    @CurrentUser() user: AuthUser,
    @Param('name') name: string,
    @ReportQuery() url: NamedReportQueryDto,
    @Query() parameters: Record<string, unknown>,
    @Body() body: unknown,
    @Req() req: Request,
  ): Promise<WithoutRuntime<NamedReportResultDto> | StreamableFile> {
    const form = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    return this.runNamed(user, name, url, parameters, form, req);
  }

  @Put(':name')
  @ApiOperation({ summary: 'Create or replace a report template (managers of its container, administrators)' })
  @ApiParam({ name: 'name', description: 'Report name, URL-encoded', example: 'My report' })
  @ApiQueryKeys(PutReportQueryDto)
  @ApiQmlBody()
  @ApiCreatedResponse({ description: 'created', type: TemplateDetailsDto })
  @ApiOkResponse({ description: 'replaced', type: TemplateDetailsDto })
  @ApiForbiddenResponse({ type: ErrorEnvelopeDto })
  async put(
    @CurrentUser() user: AuthUser,
    @Param('name') name: string,
    @ReportQuery() query: PutReportQueryDto,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TemplateDetailsDto> {
    const { created, details } = await this.reports.put(user, name, body, req.get('content-type'), query);
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
    url: NamedReportQueryDto,
    parameters: Record<string, unknown>,
    form: Record<string, unknown>,
    req: Request,
  ): Promise<WithoutRuntime<NamedReportResultDto> | StreamableFile> {
    const format = requestedFormat(url, form, req);
    const run = await this.reports.runByName(user, name, namedParameters(parameters, form));
    return namedAnswer(format, run, user, { csvNeutralizeFormulas: this.config.csvNeutralizeFormulas });
  }
}
