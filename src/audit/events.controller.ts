import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated } from '../common/api-docs.decorators.js';
import { ErrorEnvelopeDto } from '../common/error-envelope.dto.js';
import { AuditService } from './audit.service.js';
import { AuditEventListDto, EventsQueryDto } from './dto/audit.dto.js';

@ApiTags('admin')
@ApiAuthenticated()
@Controller('admin/events')
export class EventsController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({
    summary: 'List audit events',
    description:
      'Every write of every service, newest first, paged; filtered by user, object (OID or number), time ' +
      '(from inclusive, to exclusive) and action (exact, or a prefix ending in `*`). Administrators only.',
  })
  @ApiOkResponse({ type: AuditEventListDto })
  @ApiBadRequestResponse({ description: 'bad filter; the message names it', type: ErrorEnvelopeDto })
  @ApiForbiddenResponse({ description: 'the caller is not an administrator', type: ErrorEnvelopeDto })
  list(@CurrentUser() user: AuthUser, @Query() query: EventsQueryDto): Promise<AuditEventListDto> {
    return this.audit.list(user, query);
  }
}
