import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
import { ContainersService } from './containers.service.js';
import {
  ContainerDto,
  ContainerListDto,
  ContainerNameParamDto,
  CreateContainerDto,
  MemberDto,
  MemberListDto,
  MemberParamsDto,
  MembersParamDto,
  SetMemberDto,
  UpdateContainerDto,
} from './dto/containers.dto.js';
import { PageQueryDto } from '../common/paging.dto.js';

const BAD = 'bad parameter or body; the message names the field';
const NOT_FOUND = 'no container of that name (or one the caller may not read)';
const ADMINS = 'the caller is not an administrator';
const MANAGERS = 'the caller is neither an administrator nor a manager of the container';

@ApiTags('admin')
@ApiAuthenticated()
@Controller('admin/containers')
export class ContainersController {
  constructor(private readonly containers: ContainersService) {}

  @Get()
  @ApiOperation({ summary: 'List containers', description: 'Paged, ordered by name. Administrators only.' })
  @ApiOkResponse({ type: ContainerListDto })
  @ApiErrors({ 400: BAD, 403: ADMINS })
  list(@CurrentUser() caller: AuthUser, @Query() page: PageQueryDto): Promise<ContainerListDto> {
    return this.containers.list(caller, page);
  }

  @Post()
  @ApiOperation({ summary: 'Create a container', description: 'Administrators only.' })
  @ApiCreatedResponse({ type: ContainerDto })
  @ApiErrors({ 400: BAD, 403: ADMINS, 409: 'a container of that name exists' })
  create(@CurrentUser() caller: AuthUser, @Body() body: CreateContainerDto): Promise<ContainerDto> {
    return this.containers.create(caller, body);
  }

  @Patch(':container')
  @ApiOperation({
    summary: 'Rename a container or change its description',
    description: 'The class cannot change (it is part of the OID). Administrators only.',
  })
  @ApiOkResponse({ type: ContainerDto })
  @ApiErrors({ 400: BAD, 403: ADMINS, 404: NOT_FOUND, 409: 'another container has the new name' })
  update(
    @CurrentUser() caller: AuthUser,
    @Param() params: ContainerNameParamDto,
    @Body() body: UpdateContainerDto,
  ): Promise<ContainerDto> {
    return this.containers.update(caller, params.container, body);
  }

  @Delete(':container')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an empty container',
    description:
      'Refused (409) while the container holds business objects, other objects, links or report templates. ' +
      'Its memberships, numbering rules and workspaces are deleted with it. Administrators only.',
  })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiErrors({ 403: ADMINS, 404: NOT_FOUND, 409: 'the container is not empty' })
  async remove(@CurrentUser() caller: AuthUser, @Param() params: ContainerNameParamDto): Promise<void> {
    await this.containers.remove(caller, params.container);
  }

  @Get(':container/members')
  @ApiOperation({
    summary: 'List the members of a container',
    description: 'Paged, ordered by user name. Administrators and managers of the container.',
  })
  @ApiOkResponse({ type: MemberListDto })
  @ApiErrors({ 400: BAD, 403: MANAGERS, 404: NOT_FOUND })
  members(
    @CurrentUser() caller: AuthUser,
    @Param() params: MembersParamDto,
    @Query() page: PageQueryDto,
  ): Promise<MemberListDto> {
    return this.containers.members(caller, params.container, page);
  }

  @Put(':container/members/:user')
  @ApiOperation({
    summary: "Set a user's role in a container",
    description:
      'reader reads, author also writes files and numbers, manager also manages report templates and members. ' +
      '201 when the user became a member, 200 when the role changed. Administrators and managers of the container.',
  })
  @ApiCreatedResponse({ type: MemberDto, description: 'the user is a new member' })
  @ApiOkResponse({ type: MemberDto, description: 'the role was changed' })
  @ApiErrors({ 400: BAD, 403: MANAGERS, 404: 'no such container or user' })
  async setMember(
    @CurrentUser() caller: AuthUser,
    @Param() params: MemberParamsDto,
    @Body() body: SetMemberDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MemberDto> {
    const { created, member } = await this.containers.setMember(caller, params.container, params.user, body.role);
    res.status(created ? 201 : 200);
    return member;
  }

  @Delete(':container/members/:user')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove a user from a container',
    description: 'Administrators and managers of the container.',
  })
  @ApiNoContentResponse({ description: 'removed' })
  @ApiErrors({ 403: MANAGERS, 404: 'no such container, or the user is not a member' })
  async removeMember(@CurrentUser() caller: AuthUser, @Param() params: MemberParamsDto): Promise<void> {
    await this.containers.removeMember(caller, params.container, params.user);
  }
}
