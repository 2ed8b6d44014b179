import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../common/api-docs.decorators.js';
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
  @ApiErrors({ 400: 'bad filter; the message names it', 403: 'the caller is not an administrator' })
  list(@CurrentUser() user: AuthUser, @Query() query: EventsQueryDto): Promise<AuditEventListDto> {
    return this.audit.list(user, query);
  }
}
