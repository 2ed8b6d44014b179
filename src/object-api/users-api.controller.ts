import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AnswersRuntime, type WithoutRuntime } from '../common/answers-runtime.js';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
import { baseUrl } from '../common/public-url.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiListQueryDto, UserItemParamDto } from './dto/object-api-query.dto.js';
import { ApiUserItemDto, ApiUserListDto } from './dto/object-api-response.dto.js';
import { API_LIMIT_MAX } from './object-api-params.js';
import { ObjectApiService } from './object-api.service.js';

/** api/1.0/users: users' names, open to every signed-in user (their other data is administration's). */
@ApiTags('object-api')
@ApiAuthenticated()
@Controller('api/1.0/users')
export class UsersApiController {
  constructor(
    private readonly service: ObjectApiService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List users (wt.org.WTUser)',
    description:
      `Pointers ({oid, name, url}) to every user, by login name; \`name\` takes \`*\` and \`?\`, \`limit\` 1 to ` +
      `${API_LIMIT_MAX} (default 100), \`start\` skips items. Any signed-in user.`,
  })
  @ApiOkResponse({ type: ApiUserListDto })
  @ApiErrors({ 400: 'bad parameter; the message names it' })
  @AnswersRuntime()
  list(@Query() q: ApiListQueryDto, @Req() req: Request): Promise<WithoutRuntime<ApiUserListDto>> {
    return this.service.listUsers(q, baseUrl(req, this.config));
  }

  @Get(':oid')
  @ApiOperation({
    summary: 'Read a user',
    description: 'Named by OID (OR:wt.org.WTUser:<id>) or login name: the name and full name. Any signed-in user.',
  })
  @ApiOkResponse({ type: ApiUserItemDto })
  @ApiErrors({ 400: 'a malformed OID or one of another class', 404: 'no such user' })
  @AnswersRuntime()
  read(@Param() p: UserItemParamDto, @Req() req: Request): Promise<WithoutRuntime<ApiUserItemDto>> {
    return this.service.readUser(p.oid, baseUrl(req, this.config));
  }
}
