import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthUser } from '../../auth/auth-user.js';
import { CurrentUser } from '../../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors } from '../../common/api-docs.decorators.js';
import { PageQueryDto } from '../../common/paging.dto.js';
import { DeadLettersService } from './dead-letters.service.js';
import {
  CreatedSubscriptionDto,
  CreateSubscriptionDto,
  DeadLetterListDto,
  DeadLettersDto,
  DiscardedDto,
  RedeliveredDto,
  SubscriptionDto,
  SubscriptionListDto,
  UpdateSubscriptionDto,
} from './dto/subscriptions.dto.js';
import { SubscriptionsService } from './subscriptions.service.js';
import { IdParamDto } from '../../common/id-param.dto.js';

const WHO =
  'Administrators manage every subscription; managers of a container make and manage subscriptions of that container.';
/** One target per example: Swagger UI would fill in url, nats and amqp together from the schema alone. */
const CREATE_BODY = {
  type: CreateSubscriptionDto,
  examples: {
    webhook: {
      summary: 'state changes of Drive Unit to a webhook',
      value: {
        name: 'released to ERP',
        actions: ['objects.state'],
        container: 'Drive Unit',
        state: 'RELEASED',
        url: 'https://erp.example.com/pdm-events',
      },
    },
    nats: {
      summary: 'every object event of Drive Unit to NATS',
      value: { name: 'objects to NATS', actions: ['objects.*'], container: 'Drive Unit', nats: 'pdm.erp' },
    },
  },
};
const UPDATE_BODY = {
  type: UpdateSubscriptionDto,
  examples: {
    actions: { summary: 'every object event', value: { actions: ['objects.*'] } },
    pause: { summary: 'pause it', value: { active: false } },
    resume: { summary: 'resume it where it stopped', value: { active: true } },
  },
};
const BAD = 'bad body; the message names the field (an unknown action or type, a refused URL, a bad secret)';

@ApiTags('events')
@ApiAuthenticated()
@Controller('events/subscriptions')
export class SubscriptionsController {
  constructor(
    private readonly subscriptions: SubscriptionsService,
    private readonly letters: DeadLettersService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List subscriptions', description: `The subscriptions the caller sees. ${WHO}` })
  @ApiOkResponse({ type: SubscriptionListDto })
  list(@CurrentUser() caller: AuthUser): Promise<SubscriptionListDto> {
    return this.subscriptions.list(caller);
  }

  @Post()
  @ApiOperation({
    summary: 'Subscribe to change events',
    description:
      'Events committed from now on that match the actions (and the container, type, state given) and that the ' +
      'owner may read are delivered to the webhook (signed with `secret`, shown in this answer) or published on ' +
      `NATS, at least once and in commit order. ${WHO}`,
  })
  @ApiBody(CREATE_BODY)
  @ApiCreatedResponse({ type: CreatedSubscriptionDto })
  @ApiErrors({
    400: BAD,
    403: 'not an administrator nor a manager of the container',
    409: 'name taken, or EVENTS_SUBSCRIPTION_LIMIT reached',
  })
  create(@CurrentUser() caller: AuthUser, @Body() body: CreateSubscriptionDto): Promise<CreatedSubscriptionDto> {
    return this.subscriptions.create(caller, body);
  }

  @Get(':id/dead-letters')
  @ApiOperation({
    summary: 'List dead letters',
    description: 'Events the subscription gave up on after EVENTS_MAX_ATTEMPTS, or that the receiver refused.',
  })
  @ApiOkResponse({ type: DeadLetterListDto })
  @ApiErrors({ 400: 'bad id or paging', 404: 'no such subscription the caller sees' })
  deadLetters(
    @CurrentUser() caller: AuthUser,
    @Param() p: IdParamDto,
    @Query() q: PageQueryDto,
  ): Promise<DeadLetterListDto> {
    return this.letters.list(caller, p.id, q);
  }

  @Post(':id/dead-letters/redeliver')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Deliver dead letters again',
    description:
      'Queues the dead letters named (all when `ids` is absent); the delivery loop tries each once, before new ' +
      'events. One delivered leaves the list; one that fails again stays with its new error.',
  })
  @ApiAcceptedResponse({ type: RedeliveredDto })
  @ApiErrors({ 400: 'bad ids', 403: 'not allowed to change it', 404: 'no such subscription the caller sees' })
  redeliver(
    @CurrentUser() caller: AuthUser,
    @Param() p: IdParamDto,
    @Body() body: DeadLettersDto,
  ): Promise<RedeliveredDto> {
    return this.letters.redeliver(caller, p.id, body);
  }

  @Post(':id/dead-letters/discard')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Discard dead letters',
    description: 'Deletes the dead letters named (all of the subscription’s when `ids` is absent); how many went.',
  })
  @ApiOkResponse({ type: DiscardedDto })
  @ApiErrors({ 400: 'bad ids', 403: 'not allowed to change it', 404: 'no such subscription the caller sees' })
  discard(
    @CurrentUser() caller: AuthUser,
    @Param() p: IdParamDto,
    @Body() body: DeadLettersDto,
  ): Promise<DiscardedDto> {
    return this.letters.discard(caller, p.id, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a subscription' })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiErrors({ 400: 'bad id', 404: 'no such subscription the caller sees' })
  get(@CurrentUser() caller: AuthUser, @Param() p: IdParamDto): Promise<SubscriptionDto> {
    return this.subscriptions.get(caller, p.id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change, pause or resume a subscription',
    description: '`active: true` resumes a paused one at the event where it stopped. A new URL keeps the secret.',
  })
  @ApiBody(UPDATE_BODY)
  @ApiOkResponse({ type: CreatedSubscriptionDto })
  @ApiErrors({
    400: BAD,
    403: 'not allowed to change it',
    404: 'no such subscription the caller sees',
    409: 'name taken',
  })
  update(
    @CurrentUser() caller: AuthUser,
    @Param() p: IdParamDto,
    @Body() body: UpdateSubscriptionDto,
  ): Promise<CreatedSubscriptionDto> {
    return this.subscriptions.update(caller, p.id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a subscription', description: 'Its dead letters go with it.' })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiErrors({ 400: 'bad id', 403: 'not allowed to delete it', 404: 'no such subscription the caller sees' })
  async delete(@CurrentUser() caller: AuthUser, @Param() p: IdParamDto): Promise<void> {
    await this.subscriptions.delete(caller, p.id);
  }
}
