import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthUser } from '../../auth/auth-user.js';
import { CurrentUser } from '../../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../../common/api-docs.decorators.js';
import { EventsStatsService } from '../events-stats.service.js';
import { EventStatsDto, FeedDto, FeedQueryDto } from './dto/feed.dto.js';
import { EventsFeedService } from './events-feed.service.js';

@ApiTags('events')
@ApiAuthenticated()
@Controller('events')
export class EventsFeedController {
  constructor(
    private readonly feed: EventsFeedService,
    private readonly statistics: EventsStatsService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Read the change events feed',
    description:
      'The events after `after` (the `cursor` of the previous answer) that the caller may read, oldest first, as ' +
      'CloudEvents 1.0; with `wait`, the answer waits up to that many seconds for an event when there is none yet. ' +
      'The cursor holds across instances and restarts. See docs/events.md.',
  })
  @ApiOkResponse({ type: FeedDto })
  @ApiErrors({
    400: 'bad after, limit or wait',
    429: 'the user holds EVENTS_FEED_WAITS_PER_USER waiting requests here',
  })
  read(@CurrentUser() caller: AuthUser, @Query() query: FeedQueryDto, @Req() req: Request): Promise<FeedDto> {
    const closed = new AbortController();
    req.res?.once('close', () => closed.abort());
    return this.feed.read(caller, query, closed.signal);
  }

  @Get('stats')
  @ApiOperation({
    summary: 'Delivery statistics',
    description:
      "The feed's newest and oldest cursor and, for each subscription the caller sees, its backlog, oldest " +
      'undelivered event, failures and dead letters.',
  })
  @ApiOkResponse({ type: EventStatsDto })
  stats(@CurrentUser() caller: AuthUser): Promise<EventStatsDto> {
    return this.statistics.stats(caller);
  }
}
