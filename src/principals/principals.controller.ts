import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
import { MeDto, PrincipalGroupListDto, PrincipalSearchQueryDto, PrincipalUserListDto } from './dto/principals.dto.js';
import { PrincipalsService } from './principals.service.js';

const BAD = 'bad parameter; the message names it';

@ApiTags('principals')
@ApiAuthenticated()
@Controller('principals')
export class PrincipalsController {
  constructor(private readonly principals: PrincipalsService) {}

  @Get('users')
  @ApiOperation({
    summary: 'Find users',
    description:
      'Paged, ordered by name: users whose login or full name contains `name` (case-insensitive), or matches ' +
      'it as a whole when it has `*` or `?`. Names and full names only. Any signed-in user.',
  })
  @ApiOkResponse({ type: PrincipalUserListDto })
  @ApiErrors({ 400: BAD })
  users(@Query() q: PrincipalSearchQueryDto): Promise<PrincipalUserListDto> {
    return this.principals.findUsers(q);
  }

  @Get('groups')
  @ApiOperation({
    summary: 'Find groups',
    description:
      'Paged, ordered by name: groups whose name contains `name` (case-insensitive), or matches it as a whole ' +
      'when it has `*` or `?`. Any signed-in user.',
  })
  @ApiOkResponse({ type: PrincipalGroupListDto })
  @ApiErrors({ 400: BAD })
  groups(@Query() q: PrincipalSearchQueryDto): Promise<PrincipalGroupListDto> {
    return this.principals.findGroups(q);
  }

  @Get('me')
  @ApiOperation({
    summary: 'Who am I',
    description:
      'The caller as this request signed in (password, personal access token or identity provider, with the ' +
      "token's scopes), the groups they are in (also through nested groups) and the containers they may read " +
      "with their role there (the highest of their own and their groups').",
  })
  @ApiOkResponse({ type: MeDto })
  me(@CurrentUser() caller: AuthUser): Promise<MeDto> {
    return this.principals.me(caller);
  }
}
