import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated } from '../common/api-docs.decorators.js';
import { ErrorEnvelopeDto } from '../common/error-envelope.dto.js';
import { NumberingRuleDto } from '../numbers/dto/numbers-response.dto.js';
import { CreateRuleDto, RuleListDto, RuleParamsDto, RulesParamDto, UpdateRuleDto } from './dto/rules.dto.js';
import { RulesService } from './rules.service.js';

const BAD = { description: 'bad parameter or body; the message names the field', type: ErrorEnvelopeDto };

@ApiTags('admin')
@ApiAuthenticated()
@ApiForbiddenResponse({ description: 'the caller is not an administrator', type: ErrorEnvelopeDto })
@Controller('admin/containers/:container/rules')
export class RulesController {
  constructor(private readonly rules: RulesService) {}

  @Get()
  @ApiOperation({ summary: "List a container's numbering rules", description: 'Administrators only.' })
  @ApiOkResponse({ type: RuleListDto })
  @ApiNotFoundResponse({ description: 'no container of that name', type: ErrorEnvelopeDto })
  list(@CurrentUser() caller: AuthUser, @Param() params: RulesParamDto): Promise<RuleListDto> {
    return this.rules.list(caller, params.container);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a numbering rule',
    description:
      'One rule per class and container; numbers are prefix + counter zero-padded to width + suffix. Administrators only.',
  })
  @ApiCreatedResponse({ type: NumberingRuleDto })
  @ApiBadRequestResponse(BAD)
  @ApiNotFoundResponse({ description: 'no container of that name', type: ErrorEnvelopeDto })
  @ApiConflictResponse({ description: 'the container has a rule for the class', type: ErrorEnvelopeDto })
  create(
    @CurrentUser() caller: AuthUser,
    @Param() params: RulesParamDto,
    @Body() body: CreateRuleDto,
  ): Promise<NumberingRuleDto> {
    return this.rules.create(caller, params.container, body);
  }

  @Patch(':class_name')
  @ApiOperation({
    summary: 'Change a numbering rule',
    description:
      'Changes prefix, suffix, width or the counter `next`. The counter never goes back (409): numbers below ' +
      'it may have been handed out. The check holds the rule locked as number generation does, so a ' +
      'reservation running at the same time is counted. Administrators only.',
  })
  @ApiOkResponse({ type: NumberingRuleDto })
  @ApiBadRequestResponse(BAD)
  @ApiNotFoundResponse({ description: 'no such container, or no rule for the class there', type: ErrorEnvelopeDto })
  @ApiConflictResponse({ description: 'next below the current counter', type: ErrorEnvelopeDto })
  update(
    @CurrentUser() caller: AuthUser,
    @Param() params: RuleParamsDto,
    @Body() body: UpdateRuleDto,
  ): Promise<NumberingRuleDto> {
    return this.rules.update(caller, params.container, params.class_name, body);
  }

  @Delete(':class_name')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a numbering rule',
    description: 'Numbers for the class can no longer be generated in the container. Administrators only.',
  })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiNotFoundResponse({ description: 'no such container, or no rule for the class there', type: ErrorEnvelopeDto })
  async remove(@CurrentUser() caller: AuthUser, @Param() params: RuleParamsDto): Promise<void> {
    await this.rules.remove(caller, params.container, params.class_name);
  }
}
