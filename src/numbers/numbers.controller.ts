import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors, ApiVersion } from '../common/api-docs.decorators.js';
import { AnswersRuntime, type WithoutRuntime } from '../common/answers-runtime.js';
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
  @AnswersRuntime()
  @ApiErrors({
    400: 'bad or missing parameter, a class the catalog does not know or that is not numbered',
    403: 'the caller may only read the container',
    404: 'unknown (or unreadable) container or workspace, or no rule for the class there',
    409: 'numbering rule exhausted: the numbers would not fit its width',
  })
  generate(
    @CurrentUser() user: AuthUser,
    @Param() params: ClassNameParamDto,
    @Query() query: GenerateNumbersQueryDto,
  ): Promise<WithoutRuntime<GeneratedNumbersDto>> {
    return this.numbers.generate(user, params.className, query);
  }

  @Get('rules')
  @ApiOperation({
    summary: "The container's numbering rules",
    description: 'Give exactly one of container-ref, container-name, workspace-name, workspace-ref. Needs read rights.',
  })
  @ApiOkResponse({ type: NumberingRulesDto })
  @AnswersRuntime()
  @ApiErrors({ 400: 'bad or missing parameter', 404: 'unknown (or unreadable) container or workspace' })
  rules(
    @CurrentUser() user: AuthUser,
    @Query() query: ContainerSourceQueryDto,
  ): Promise<WithoutRuntime<NumberingRulesDto>> {
    return this.numbers.rules(user, query);
  }
}
