import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiVersion } from '../common/api-docs.decorators.js';
import { ErrorEnvelopeDto } from '../common/error-envelope.dto.js';
import { versionRecord, type VersionRecord } from '../common/version.js';
import { ClassNameParamDto, ContainerSourceQueryDto, GenerateNumbersQueryDto } from './dto/numbers-query.dto.js';
import { GeneratedNumbersDto, NumberingRulesDto } from './dto/numbers-response.dto.js';
import { NumbersService } from './numbers.service.js';

@ApiTags('numbers')
@ApiAuthenticated()
@Controller('numbers')
export class NumbersController {
  constructor(private readonly numbers: NumbersService) {}

  @Get('version')
  @ApiVersion('numbers')
  version(): VersionRecord {
    return versionRecord();
  }

  @Post('generate/:className')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Generate consecutive numbers',
    description:
      "Reserves `count` consecutive numbers from the container's numbering rule for the class. " +
      'Give exactly one of container-ref, container-name, workspace-name, workspace-ref. No request body. ' +
      'A number is never handed out twice, and numbers existing objects of the class carry are skipped. ' +
      'Needs author or manager rights in the container.',
  })
  @ApiOkResponse({ type: GeneratedNumbersDto })
  @ApiBadRequestResponse({
    description: 'bad or missing parameter, a class the catalog does not know or that is not numbered',
    type: ErrorEnvelopeDto,
  })
  @ApiForbiddenResponse({ description: 'the caller may only read the container', type: ErrorEnvelopeDto })
  @ApiNotFoundResponse({
    description: 'unknown (or unreadable) container or workspace, or no rule for the class there',
    type: ErrorEnvelopeDto,
  })
  @ApiConflictResponse({
    description: 'numbering rule exhausted: the numbers would not fit its width',
    type: ErrorEnvelopeDto,
  })
  generate(
    @CurrentUser() user: AuthUser,
    @Param() params: ClassNameParamDto,
    @Query() query: GenerateNumbersQueryDto,
  ): Promise<GeneratedNumbersDto> {
    return this.numbers.generate(user, params.className, query);
  }

  @Get('rules')
  @ApiOperation({
    summary: "The container's numbering rules",
    description: 'Give exactly one of container-ref, container-name, workspace-name, workspace-ref. Needs read rights.',
  })
  @ApiOkResponse({ type: NumberingRulesDto })
  @ApiBadRequestResponse({ description: 'bad or missing parameter', type: ErrorEnvelopeDto })
  @ApiNotFoundResponse({ description: 'unknown (or unreadable) container or workspace', type: ErrorEnvelopeDto })
  rules(@CurrentUser() user: AuthUser, @Query() query: ContainerSourceQueryDto): Promise<NumberingRulesDto> {
    return this.numbers.rules(user, query);
  }
}
