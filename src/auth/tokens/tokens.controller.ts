import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiAuthenticated, ApiErrors } from '../../common/api-docs.decorators.js';
import type { AuthUser } from '../auth-user.js';
import { CurrentUser } from '../current-user.decorator.js';
import { AccessTokensService } from './access-tokens.service.js';
import {
  CreatedTokenDto,
  CreateTokenDto,
  TokenListDto,
  UserTokenIdParamDto,
  UserTokenParamDto,
} from './dto/tokens.dto.js';
import { IdParamDto } from '../../common/id-param.dto.js';

const CREATE =
  'The token is in the answer this once: only a hash of it is kept. Use it as `Authorization: Bearer <token>`. ' +
  'It expires at `expiresAt` or after `expiresInDays` (one of them is required, at most AUTH_TOKEN_MAX_DAYS ahead). ' +
  'Scopes: `read` (reads only: every other method is refused, except running queries and reports), `write` ' +
  "(also writes, within the user's container rights), `admin` (also administration; administrators only). " +
  'Needs a password (or identity provider) sign-in: a token cannot create tokens.';
const BAD =
  'bad body; the message names the field (also: admin scope for a user who is no administrator, expiry too far)';
/** One of expiresAt and expiresInDays: Swagger UI would fill in both from the schema alone. */
const CREATE_BODY = {
  type: CreateTokenDto,
  examples: {
    days: {
      summary: 'a read token for 30 days',
      value: { name: 'nightly export', expiresInDays: 30, scopes: ['read'] },
    },
    date: {
      summary: 'a write token until a date',
      value: { name: 'build server', expiresAt: '2027-01-31T00:00:00Z', scopes: ['write'] },
    },
  },
};
const LIMIT = 'a token of that name is in use, or the user has AUTH_TOKEN_LIMIT tokens in use';

/** The caller's own personal access tokens. */
@ApiTags('tokens')
@ApiAuthenticated()
@Controller('me/tokens')
export class MyTokensController {
  constructor(private readonly tokens: AccessTokensService) {}

  @Get()
  @ApiOperation({ summary: 'List my tokens', description: 'Tokens not revoked (expired ones too), newest first.' })
  @ApiOkResponse({ type: TokenListDto })
  list(@CurrentUser() caller: AuthUser): Promise<TokenListDto> {
    return this.tokens.list(caller);
  }

  @Post()
  @ApiOperation({ summary: 'Create a personal access token', description: CREATE })
  @ApiBody(CREATE_BODY)
  @ApiCreatedResponse({ type: CreatedTokenDto })
  @ApiErrors({ 400: BAD, 403: 'signed in with a token, or a read-only token', 409: LIMIT })
  create(@CurrentUser() caller: AuthUser, @Body() body: CreateTokenDto): Promise<CreatedTokenDto> {
    return this.tokens.create(caller, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Revoke one of my tokens',
    description: 'It stops working at once on every instance of the service.',
  })
  @ApiNoContentResponse({ description: 'revoked' })
  @ApiErrors({ 400: 'bad id', 403: 'a read-only token', 404: 'no such token of yours in use' })
  async revoke(@CurrentUser() caller: AuthUser, @Param() params: IdParamDto): Promise<void> {
    await this.tokens.revoke(caller, params.id);
  }
}

/** Any user's personal access tokens, for administrators. */
@ApiTags('admin')
@ApiAuthenticated()
@ApiErrors({ 403: 'the caller is not an administrator' })
@Controller('admin/users/:name/tokens')
export class UserTokensController {
  constructor(private readonly tokens: AccessTokensService) {}

  @Get()
  @ApiOperation({ summary: "List a user's tokens", description: 'Administrators only.' })
  @ApiOkResponse({ type: TokenListDto })
  @ApiErrors({ 404: 'no user of that name' })
  list(@CurrentUser() caller: AuthUser, @Param() params: UserTokenParamDto): Promise<TokenListDto> {
    return this.tokens.list(caller, params.name);
  }

  @Post()
  @ApiOperation({ summary: 'Create a token for a user', description: `${CREATE} Administrators only.` })
  @ApiBody(CREATE_BODY)
  @ApiCreatedResponse({ type: CreatedTokenDto })
  @ApiErrors({ 400: BAD, 404: 'no user of that name', 409: LIMIT })
  create(
    @CurrentUser() caller: AuthUser,
    @Param() params: UserTokenParamDto,
    @Body() body: CreateTokenDto,
  ): Promise<CreatedTokenDto> {
    return this.tokens.create(caller, body, params.name);
  }

  @Delete(':tokenId')
  @HttpCode(204)
  @ApiOperation({ summary: "Revoke a user's token", description: 'At once on every instance. Administrators only.' })
  @ApiNoContentResponse({ description: 'revoked' })
  @ApiErrors({ 400: 'bad id', 404: 'no such user, or no such token of theirs in use' })
  async revoke(@CurrentUser() caller: AuthUser, @Param() params: UserTokenIdParamDto): Promise<void> {
    await this.tokens.revoke(caller, params.tokenId, params.name);
  }
}
