import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
import { AuditService } from './audit.service.js';
import { HistoryDto, HistoryQueryDto, HistoryRefParamDto } from './dto/audit.dto.js';

const BAD = 'bad parameter; the message names it';

@ApiTags('objects')
@ApiAuthenticated()
@Controller('objects')
export class HistoryController {
  constructor(private readonly audit: AuditService) {}

  @Get(':ref/history')
  @ApiOperation({
    summary: 'The history of a business object',
    description:
      'The audit events of the object, newest first, paged: every change of its files, attributes, iterations ' +
      'and links by any service, who made it and when, with what changed where small. Every iteration shares ' +
      "its master's history. The object is named by an OID (of an iteration or its master) or by its number " +
      '(`type` picks the class when several carry it). Needs read rights in its container; an object the caller ' +
      'may not read is answered 404 like one that does not exist. A usage-link member the caller may not read ' +
      '(or one deleted since, for all but administrators) is shown as `"member": { "restricted": true }`, as ' +
      'structure shows it.',
  })
  @ApiOkResponse({ type: HistoryDto })
  @ApiErrors({ 400: BAD, 404: 'no such object the caller may read' })
  history(
    @CurrentUser() user: AuthUser,
    @Param() params: HistoryRefParamDto,
    @Query() query: HistoryQueryDto,
  ): Promise<HistoryDto> {
    return this.audit.history(user, params.ref, query);
  }
}
