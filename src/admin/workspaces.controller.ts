import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
import { PageQueryDto } from '../common/paging.dto.js';
import {
  ContentRoleDto,
  ContentRoleListDto,
  CreateContentRoleDto,
  CreateWorkspaceDto,
  WorkspaceDto,
  WorkspaceListDto,
  WorkspaceNameParamDto,
} from './dto/workspaces.dto.js';
import { WorkspacesService } from './workspaces.service.js';

const BAD = 'bad parameter or body; the message names the field';

@ApiTags('admin')
@ApiAuthenticated()
@ApiErrors({ 403: 'the caller is not an administrator' })
@Controller('admin')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Get('workspaces')
  @ApiOperation({ summary: 'List workspaces', description: 'Paged, ordered by name. Administrators only.' })
  @ApiOkResponse({ type: WorkspaceListDto })
  @ApiErrors({ 400: BAD })
  list(@CurrentUser() caller: AuthUser, @Query() page: PageQueryDto): Promise<WorkspaceListDto> {
    return this.workspaces.list(caller, page);
  }

  @Post('workspaces')
  @ApiOperation({
    summary: 'Create a workspace',
    description: 'A workspace names a container (the number service takes its rules from there). Administrators only.',
  })
  @ApiCreatedResponse({ type: WorkspaceDto })
  @ApiErrors({ 400: BAD, 404: 'no such container or owner', 409: 'a workspace of that name exists' })
  create(@CurrentUser() caller: AuthUser, @Body() body: CreateWorkspaceDto): Promise<WorkspaceDto> {
    return this.workspaces.create(caller, body);
  }

  @Delete('workspaces/:name')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a workspace', description: 'Administrators only.' })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiErrors({ 404: 'no workspace of that name' })
  async remove(@CurrentUser() caller: AuthUser, @Param() params: WorkspaceNameParamDto): Promise<void> {
    await this.workspaces.remove(caller, params.name);
  }

  @Get('content-roles')
  @ApiOperation({ summary: 'List content roles', description: 'The roles files may have. Administrators only.' })
  @ApiOkResponse({ type: ContentRoleListDto })
  roles(@CurrentUser() caller: AuthUser): Promise<ContentRoleListDto> {
    return this.workspaces.roles(caller);
  }

  @Post('content-roles')
  @ApiOperation({
    summary: 'Create a content role',
    description: 'Roles cannot be renamed or deleted here: files refer to them by name. Administrators only.',
  })
  @ApiCreatedResponse({ type: ContentRoleDto })
  @ApiErrors({ 400: BAD, 409: 'the role exists, or the most roles there may be exist' })
  createRole(@CurrentUser() caller: AuthUser, @Body() body: CreateContentRoleDto): Promise<ContentRoleDto> {
    return this.workspaces.createRole(caller, body.name);
  }
}
