import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors, ApiVersion } from '../common/api-docs.decorators.js';
import { baseUrl } from '../common/public-url.js';
import { AnswersRuntime, type WithoutRuntime } from '../common/answers-runtime.js';
import { versionRecord, type VersionRecord } from '../common/version.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { FetchPageParamsDto, OpenQueryParamsDto, type PagingParamsDto } from './dto/query-params.dto.js';
import { CloseResponseDto, QueryPageDto } from './dto/query-response.dto.js';
import { mergeOpenParams } from './query-params.js';
import { queryApiDocument } from './query-api.document.js';
import { OPEN_BUSY } from './query.repository.js';
import { QueryService, type Paging } from './query.service.js';
import { OidClass } from '../catalog/oid.js';
import { ReadsOnly } from '../auth/reads-only.decorator.js';

function paging(p: PagingParamsDto): Paging {
  return { page: p.page ?? 0, start: p.start ?? 0, limit: p.limit ?? 25 };
}

/**
 * Session ids come from a sequence shared by all users, and another user's session is answered
 * 404: no example id works for everyone, so Swagger UI asks for the one "open" answered.
 */
const OPEN_BUSY_ANSWER = `${OPEN_BUSY}: the open waited DB_LOCK_TIMEOUT_MS for an earlier open of the same user and kept nothing (Retry-After: 1)`;
const SESSION_ID_ABOUT = 'the session_id an "Open …" operation answered (not 0): run one first';
const OPEN_ABOUT =
  "A session_id above 0 names the session kept: fetch its pages and close it with that id (session ids are not reused, and other users' sessions are answered 404).";

@ApiTags('query')
@ApiAuthenticated()
@ApiErrors({ 400: 'bad parameter or q; the message names it' })
@Controller('query')
export class QueryController {
  constructor(
    private readonly service: QueryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('version')
  @ApiVersion('query')
  version(): VersionRecord {
    return versionRecord();
  }

  @Get('1.0/api.json')
  @ApiOperation({ summary: 'OpenAPI description of the query service, with the JSON Schema of a q object' })
  @ApiOkResponse({ schema: { type: 'object' } })
  apiJson(@Req() req: Request): Record<string, unknown> {
    return queryApiDocument(`${baseUrl(req, this.config)}/query`);
  }

  @Get('1.0/query')
  @ApiOperation({
    summary: 'Open a paged query session and return its first page (session_id 0: all fit)',
    description: OPEN_ABOUT,
  })
  @ApiOkResponse({ type: QueryPageDto })
  @AnswersRuntime()
  @ApiErrors({ 429: 'too many open sessions of this user', 503: OPEN_BUSY_ANSWER })
  open(
    @CurrentUser() user: AuthUser,
    @Query() params: OpenQueryParamsDto,
    @Req() req: Request,
  ): Promise<WithoutRuntime<QueryPageDto>> {
    const merged = mergeOpenParams(params, undefined);
    return this.service.open(user, merged.q, paging(merged), baseUrl(req, this.config), merged);
  }

  @Post('1.0/query')
  @ReadsOnly()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Open a session with the parameters in a JSON or form body (or the URL)',
    description: OPEN_ABOUT,
  })
  @ApiBody({
    type: OpenQueryParamsDto,
    required: false,
    examples: {
      'parts, or-ed with the URL': {
        summary: 'q in the body; the example q of the URL is OR-ed with it, paging stays in the URL',
        value: { q: { type: OidClass.part } },
      },
      "the original gateway's mobile client": {
        summary: 'qq, fields, associations, limit, start and pos, as the original gateway took them',
        value: {
          qq: [{ name: '*.prt' }],
          fields: ['name', 'number', 'CADName', 'state', 'location', 'containerName'],
          associations: ['representations'],
          limit: 100,
          start: 0,
          pos: 0,
        },
      },
    },
  })
  @ApiOkResponse({ type: QueryPageDto })
  @AnswersRuntime()
  @ApiErrors({ 429: 'too many open sessions of this user', 503: OPEN_BUSY_ANSWER })
  openPost(
    @CurrentUser() user: AuthUser,
    @Query() params: OpenQueryParamsDto,
    @Body() body: OpenQueryParamsDto,
    @Req() req: Request,
  ): Promise<WithoutRuntime<QueryPageDto>> {
    const merged = mergeOpenParams(params, body);
    return this.service.open(user, merged.q, paging(merged), baseUrl(req, this.config), merged);
  }

  @Get('1.0/query/:session_id')
  @ApiOperation({ summary: 'Fetch a page of an open session; close=1 closes it after answering' })
  @ApiParam({
    name: 'session_id',
    type: 'integer',
    description: SESSION_ID_ABOUT,
  })
  @ApiOkResponse({ type: QueryPageDto })
  @AnswersRuntime()
  @ApiErrors({ 404: 'no such session of the caller', 410: 'the session is closed or has expired' })
  page(
    @CurrentUser() user: AuthUser,
    @Param('session_id') sessionId: string,
    @Query() params: FetchPageParamsDto,
    @Req() req: Request,
  ): Promise<WithoutRuntime<QueryPageDto>> {
    return this.service.page(user, sessionId, paging(params), params.close === 1, baseUrl(req, this.config));
  }

  @Delete('1.0/query/:session_id')
  @ReadsOnly()
  @ApiOperation({ summary: 'Close a session: { success: true, session_id, session }' })
  @ApiParam({
    name: 'session_id',
    type: 'integer',
    description: SESSION_ID_ABOUT,
  })
  @ApiOkResponse({ type: CloseResponseDto })
  @ApiErrors({ 404: 'no such session of the caller', 410: 'the session is closed or has expired' })
  close(@CurrentUser() user: AuthUser, @Param('session_id') sessionId: string): Promise<CloseResponseDto> {
    return this.service.close(user, sessionId);
  }
}
