import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
import { NumberingRuleDto } from '../numbers/dto/numbers-response.dto.js';
import { CreateRuleDto, RuleListDto, RuleParamsDto, RulesParamDto, UpdateRuleDto } from './dto/rules.dto.js';
import { RulesService } from './rules.service.js';

const BAD = 'bad parameter or body; the message names the field';

@ApiTags('admin')
@ApiAuthenticated()
@ApiErrors({ 403: 'the caller is not an administrator' })
@Controller('admin/containers/:container/rules')
export class RulesController {
  constructor(private readonly rules: RulesService) {}

  @Get()
  @ApiOperation({ summary: "List a container's numbering rules", description: 'Administrators only.' })
  @ApiOkResponse({ type: RuleListDto })
  @ApiErrors({ 404: 'no container of that name' })
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
  @ApiErrors({ 400: BAD, 404: 'no container of that name', 409: 'the container has a rule for the class' })
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
  @ApiErrors({
    400: BAD,
    404: 'no such container, or no rule for the class there',
    409: 'next below the current counter',
  })
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
  @ApiErrors({ 404: 'no such container, or no rule for the class there' })
  async remove(@CurrentUser() caller: AuthUser, @Param() params: RuleParamsDto): Promise<void> {
    await this.rules.remove(caller, params.container, params.class_name);
  }
}
