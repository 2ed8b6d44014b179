import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
import { PageQueryDto } from '../common/paging.dto.js';
import {
  ContainerGroupDto,
  ContainerGroupListDto,
  ContainerGroupParamsDto,
  ContainerParamDto,
  SetGroupRoleDto,
} from './dto/groups.dto.js';
import { GroupsService } from './groups.service.js';

const BAD = 'bad parameter or body; the message names the field';
const MANAGERS = 'the caller is neither an administrator nor a manager of the container';

/** The roles of groups in a container, managed like its user members (src/admin/containers.controller.ts). */
@ApiTags('admin')
@ApiAuthenticated()
@Controller('admin/containers/:container/groups')
export class ContainerGroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get()
  @ApiOperation({
    summary: 'List the groups with a role in a container',
    description: 'Paged, ordered by group name. Administrators and managers of the container.',
  })
  @ApiOkResponse({ type: ContainerGroupListDto })
  @ApiErrors({ 400: BAD, 403: MANAGERS, 404: 'no container of that name (or one the caller may not read)' })
  list(
    @CurrentUser() caller: AuthUser,
    @Param() params: ContainerParamDto,
    @Query() page: PageQueryDto,
  ): Promise<ContainerGroupListDto> {
    return this.groups.containerGroups(caller, params.container, page);
  }

  @Put(':groupId')
  @ApiOperation({
    summary: "Set a group's role in a container",
    description:
      'Every member of the group, directly or through nested groups, has the role there (or their own, if higher). ' +
      '201 when the group had no role there, 200 otherwise. Administrators and managers of the container.',
  })
  @ApiCreatedResponse({ type: ContainerGroupDto, description: 'the group has a role there now' })
  @ApiOkResponse({ type: ContainerGroupDto, description: 'the role was changed (or was that already)' })
  @ApiErrors({ 400: BAD, 403: MANAGERS, 404: 'no such container or group' })
  async set(
    @CurrentUser() caller: AuthUser,
    @Param() params: ContainerGroupParamsDto,
    @Body() body: SetGroupRoleDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ContainerGroupDto> {
    const { outcome, role } = await this.groups.setContainerRole(caller, params.container, params.groupId, body.role);
    res.status(outcome === 'created' ? 201 : 200);
    return role;
  }

  @Delete(':groupId')
  @HttpCode(204)
  @ApiOperation({
    summary: "Remove a group's role in a container",
    description: 'Administrators and managers of the container.',
  })
  @ApiNoContentResponse({ description: 'removed' })
  @ApiErrors({ 400: BAD, 403: MANAGERS, 404: 'no such container, or the group has no role there' })
  async remove(@CurrentUser() caller: AuthUser, @Param() params: ContainerGroupParamsDto): Promise<void> {
    await this.groups.removeContainerRole(caller, params.container, params.groupId);
  }
}
