import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
import { PageQueryDto } from '../common/paging.dto.js';
import { CreateUserDto, UpdateUserDto, UserDto, UserListDto, UserNameParamDto } from './dto/users.dto.js';
import { UsersService } from './users.service.js';

const FORBIDDEN = 'the caller is not an administrator';
const BAD = 'bad parameter or body; the message names the field';
const NOT_FOUND = 'no user of that name';

@ApiTags('admin')
@ApiAuthenticated()
@ApiErrors({ 403: FORBIDDEN })
@Controller('admin/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'List users', description: 'Paged, ordered by name. Administrators only.' })
  @ApiOkResponse({ type: UserListDto })
  @ApiErrors({ 400: BAD })
  list(@CurrentUser() caller: AuthUser, @Query() page: PageQueryDto): Promise<UserListDto> {
    return this.users.list(caller, page);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a user',
    description: 'The password is stored as a scrypt hash. Administrators only.',
  })
  @ApiCreatedResponse({ type: UserDto })
  @ApiErrors({ 400: BAD, 409: 'a user of that name exists' })
  create(@CurrentUser() caller: AuthUser, @Body() body: CreateUserDto): Promise<UserDto> {
    return this.users.create(caller, body);
  }

  @Get(':name')
  @ApiOperation({ summary: 'Read a user', description: 'Administrators only.' })
  @ApiOkResponse({ type: UserDto })
  @ApiErrors({ 404: NOT_FOUND })
  get(@CurrentUser() caller: AuthUser, @Param() params: UserNameParamDto): Promise<UserDto> {
    return this.users.get(caller, params.name);
  }

  @Patch(':name')
  @ApiOperation({
    summary: 'Change a user',
    description:
      'Changes the given fields only (fullName or email null clears them). A new password, `disabled: true` ' +
      'or `admin: false` takes effect at once on every instance of the service: credentials cached before ' +
      'are dropped when the change commits. The last enabled administrator cannot lose the flag. ' +
      'Administrators only.',
  })
  @ApiOkResponse({ type: UserDto })
  @ApiErrors({ 400: BAD, 404: NOT_FOUND, 409: 'the change would leave no enabled administrator' })
  update(
    @CurrentUser() caller: AuthUser,
    @Param() params: UserNameParamDto,
    @Body() body: UpdateUserDto,
  ): Promise<UserDto> {
    return this.users.update(caller, params.name, body);
  }

  @Delete(':name')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a user',
    description:
      'Deletes the user with their memberships and query sessions. Refused (409) while iterations or ' +
      'objects name the user as creator or modifier, or the user owns a workspace: disable such a user ' +
      'instead (PATCH `{"disabled": true}`), which keeps who made what. Administrators only.',
  })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiErrors({
    404: NOT_FOUND,
    409: 'the user is named by iterations, objects or workspaces, or is the last administrator',
  })
  async remove(@CurrentUser() caller: AuthUser, @Param() params: UserNameParamDto): Promise<void> {
    await this.users.remove(caller, params.name);
  }
}
