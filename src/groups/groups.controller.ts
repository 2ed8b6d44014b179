import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
import { PageQueryDto } from '../common/paging.dto.js';
import {
  CreateGroupDto,
  GroupDeleteParamDto,
  GroupDto,
  GroupGroupParamsDto,
  GroupIdParamDto,
  GroupListDto,
  GroupListQueryDto,
  GroupMemberListDto,
  GroupNestingDto,
  GroupUserDto,
  GroupUserParamsDto,
  UpdateGroupDto,
} from './dto/groups.dto.js';
import { GroupsService } from './groups.service.js';
import { GROUPS_MAX, NESTING_DEPTH_MAX } from './group-rules.js';

const BAD = 'bad parameter or body; the message names the field';
const ADMINS = 'the caller is not an administrator';
const NOT_FOUND = 'no group with that id';

@ApiTags('admin')
@ApiAuthenticated()
@Controller('admin/groups')
export class GroupsController {
  // The routes of one group come after those of its members, so that Swagger UI lists the
  // deletion last (its "Try it out" examples run in that order).
  constructor(private readonly groups: GroupsService) {}

  @Get()
  @ApiOperation({
    summary: 'List groups',
    description: 'Paged, ordered by name; `name` filters (case-insensitive, * and ? wildcards). Administrators only.',
  })
  @ApiOkResponse({ type: GroupListDto })
  @ApiErrors({ 400: BAD, 403: ADMINS })
  list(@CurrentUser() caller: AuthUser, @Query() q: GroupListQueryDto): Promise<GroupListDto> {
    return this.groups.list(caller, q);
  }

  @Post()
  @ApiOperation({ summary: 'Create a group', description: `At most ${GROUPS_MAX} groups. Administrators only.` })
  @ApiCreatedResponse({ type: GroupDto })
  @ApiErrors({ 400: BAD, 403: ADMINS, 409: `a group of that name exists, or there are ${GROUPS_MAX} groups` })
  create(@CurrentUser() caller: AuthUser, @Body() body: CreateGroupDto): Promise<GroupDto> {
    return this.groups.create(caller, body);
  }

  @Get(':id/members')
  @ApiOperation({
    summary: 'List the direct members of a group',
    description: 'Its groups, then its users, each by name; paged. Administrators only.',
  })
  @ApiOkResponse({ type: GroupMemberListDto })
  @ApiErrors({ 400: BAD, 403: ADMINS, 404: NOT_FOUND })
  members(
    @CurrentUser() caller: AuthUser,
    @Param() params: GroupIdParamDto,
    @Query() page: PageQueryDto,
  ): Promise<GroupMemberListDto> {
    return this.groups.members(caller, params.id, page);
  }

  @Put(':id/users/:user')
  @ApiOperation({
    summary: 'Put a user into a group',
    description:
      '201 when the user was not in the group; 200 when they were (a member a groups claim put there becomes ' +
      "an administrator's member, which claims never take out). Administrators only.",
  })
  @ApiCreatedResponse({ type: GroupUserDto, description: 'the user is a new member' })
  @ApiOkResponse({ type: GroupUserDto, description: 'the user was a member already' })
  @ApiErrors({ 400: BAD, 403: ADMINS, 404: 'no such group or user' })
  async putUser(
    @CurrentUser() caller: AuthUser,
    @Param() params: GroupUserParamsDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<GroupUserDto> {
    const { outcome, member } = await this.groups.putUser(caller, params.id, params.user);
    res.status(outcome === 'created' ? 201 : 200);
    return member;
  }

  @Delete(':id/users/:user')
  @HttpCode(204)
  @ApiOperation({ summary: 'Take a user out of a group', description: 'Administrators only.' })
  @ApiNoContentResponse({ description: 'removed' })
  @ApiErrors({ 400: BAD, 403: ADMINS, 404: 'no such group, or the user is not in it' })
  async removeUser(@CurrentUser() caller: AuthUser, @Param() params: GroupUserParamsDto): Promise<void> {
    await this.groups.removeUser(caller, params.id, params.user);
  }

  @Put(':id/groups/:memberGroupId')
  @ApiOperation({
    summary: 'Put a group into a group',
    description:
      'The members of group memberGroupId become members of group id. Refused (409) when it would close a cycle ' +
      `(the message names it) or nest groups more than ${NESTING_DEPTH_MAX} deep. 201 when new, 200 when it was ` +
      'there already. Administrators only.',
  })
  @ApiCreatedResponse({ type: GroupNestingDto, description: 'nested' })
  @ApiOkResponse({ type: GroupNestingDto, description: 'nested already' })
  @ApiErrors({ 400: BAD, 403: ADMINS, 404: 'no such group', 409: 'a cycle, or too deep' })
  async putGroup(
    @CurrentUser() caller: AuthUser,
    @Param() params: GroupGroupParamsDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<GroupNestingDto> {
    const { outcome, nesting } = await this.groups.putGroup(caller, params.id, params.memberGroupId);
    res.status(outcome === 'created' ? 201 : 200);
    return nesting;
  }

  @Delete(':id/groups/:memberGroupId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Take a group out of a group', description: 'Administrators only.' })
  @ApiNoContentResponse({ description: 'removed' })
  @ApiErrors({ 400: BAD, 403: ADMINS, 404: 'no such group, or it is not in the group' })
  async removeGroup(@CurrentUser() caller: AuthUser, @Param() params: GroupGroupParamsDto): Promise<void> {
    await this.groups.removeGroup(caller, params.id, params.memberGroupId);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Show a group', description: 'Administrators only.' })
  @ApiOkResponse({ type: GroupDto })
  @ApiErrors({ 400: BAD, 403: ADMINS, 404: NOT_FOUND })
  get(@CurrentUser() caller: AuthUser, @Param() params: GroupIdParamDto): Promise<GroupDto> {
    return this.groups.get(caller, params.id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a group or change its description', description: 'Administrators only.' })
  @ApiOkResponse({ type: GroupDto })
  @ApiErrors({ 400: BAD, 403: ADMINS, 404: NOT_FOUND, 409: 'another group has the new name' })
  update(
    @CurrentUser() caller: AuthUser,
    @Param() params: GroupIdParamDto,
    @Body() body: UpdateGroupDto,
  ): Promise<GroupDto> {
    return this.groups.update(caller, params.id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a group',
    description:
      'Its users, nested groups and container roles go with it: its members lose the rights it gave at once. ' +
      'Administrators only.',
  })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiErrors({ 400: BAD, 403: ADMINS, 404: NOT_FOUND })
  async remove(@CurrentUser() caller: AuthUser, @Param() params: GroupDeleteParamDto): Promise<void> {
    await this.groups.remove(caller, params.id);
  }
}
