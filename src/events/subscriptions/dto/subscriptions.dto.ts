import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { CloudEventDto } from '../../feed/dto/feed.dto.js';

export const SUBSCRIPTION_NAME_MAX = 100;
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/;

/** A new subscription: what it selects and where it delivers (a webhook URL, a NATS subject or an AMQP routing key). */
export class CreateSubscriptionDto {
  /** unique among the owner's subscriptions */
  @ApiProperty({ example: 'released parts to ERP', maxLength: SUBSCRIPTION_NAME_MAX })
  @IsString({ message: 'name must be a string' })
  @Matches(/^\S(.*\S)?$/u, { message: 'name must not be empty nor start or end with white space' })
  @Matches(ONE_LINE, { message: 'name must not contain control characters' })
  @MaxLength(SUBSCRIPTION_NAME_MAX, { message: `name must be at most ${SUBSCRIPTION_NAME_MAX} characters` })
  name!: string;

  /** audit actions (`objects.state`), prefixes ending in `.*` (`objects.*`) or `*` */
  @ApiProperty({ example: ['objects.state'], isArray: true, type: String })
  @IsArray({ message: 'actions must be an array' })
  @ArrayMinSize(1, { message: 'actions must name at least one action' })
  @ArrayMaxSize(50, { message: 'actions must name at most 50 actions' })
  @IsString({ each: true, message: 'actions must each be a string' })
  @MaxLength(100, { each: true, message: 'actions must each be at most 100 characters' })
  actions!: string[];

  /** only events of this container's objects; required unless the caller is an administrator */
  @ApiPropertyOptional({ example: 'Drive Unit', type: String })
  @IsOptional()
  @IsString({ message: 'container must be a string' })
  @MaxLength(200, { message: 'container must be at most 200 characters' })
  container?: string | null;

  /** only objects of this class or soft type, subclasses and sub-types included */
  @ApiPropertyOptional({ example: 'wt.part.WTPart', type: String })
  @IsOptional()
  @IsString({ message: 'type must be a string' })
  @MaxLength(300, { message: 'type must be at most 300 characters' })
  type?: string | null;

  /** only events that leave the object in this state (`RELEASED`) */
  @ApiPropertyOptional({ example: 'RELEASED', type: String })
  @IsOptional()
  @IsString({ message: 'state must be a string' })
  @Matches(/^[A-Z][A-Z0-9_]{0,39}$/, { message: 'state must be a state name (upper-case letters, digits, _)' })
  state?: string | null;

  /** the webhook to POST each event to (give one of url, nats and amqp) */
  @ApiPropertyOptional({ example: 'https://erp.example.com/pdm-events' })
  @IsOptional()
  @IsString({ message: 'url must be a string' })
  @MaxLength(2000, { message: 'url must be at most 2000 characters' })
  url?: string;

  /** the NATS subject prefix to publish each event under (JetStream stream EVENTS_NATS_STREAM), e.g. `pdm.erp` */
  @ApiPropertyOptional({ example: 'pdm.erp' })
  @IsOptional()
  @IsString({ message: 'nats must be a string' })
  @MaxLength(200, { message: 'nats must be at most 200 characters' })
  nats?: string;

  /** the AMQP routing key prefix to publish each event under on EVENTS_AMQP_EXCHANGE, e.g. `pdm.mes` */
  @ApiPropertyOptional({ example: 'pdm.mes' })
  @IsOptional()
  @IsString({ message: 'amqp must be a string' })
  @MaxLength(200, { message: 'amqp must be at most 200 characters' })
  amqp?: string;

  /** the webhook's signing secret (`whsec_` + base64); made for you when absent */
  @ApiPropertyOptional({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  @IsOptional()
  @IsString({ message: 'secret must be a string' })
  @MaxLength(200, { message: 'secret must be at most 200 characters' })
  secret?: string;

  /** false: created paused (absent: active) */
  @ApiPropertyOptional({ example: true })
  @IsOptional()
  @IsBoolean({ message: 'active must be true or false' })
  active?: boolean;
}

/** A change of a subscription: the fields given replace the old ones (null removes container, type or state). */
export class UpdateSubscriptionDto extends PartialType(CreateSubscriptionDto) {
  // The same checks as on creation (a null passes @IsOptional); only the documented shape differs.
  @ApiPropertyOptional({ example: 'Drive Unit', nullable: true, type: String })
  declare container?: string | null;

  @ApiPropertyOptional({ example: 'wt.part.WTPart', nullable: true, type: String })
  declare type?: string | null;

  @ApiPropertyOptional({ example: 'RELEASED', nullable: true, type: String })
  declare state?: string | null;

  /** true resumes a paused subscription (its failed attempts are forgotten), false pauses it; absent: unchanged */
  @ApiPropertyOptional({ example: true })
  declare active?: boolean;
}

/** Which dead letters: those named, or all of the subscription's. */
export class DeadLettersDto {
  /** the dead letters' ids; absent: all of the subscription's */
  @ApiPropertyOptional({ example: ['3', '4'], isArray: true, type: String })
  @IsOptional()
  @IsArray({ message: 'ids must be an array' })
  @ArrayMaxSize(1000, { message: 'ids must name at most 1000 dead letters' })
  @Matches(/^[1-9][0-9]{0,17}$/, { each: true, message: 'ids must each be a positive whole number (as text)' })
  ids?: string[];
}

export class SubscriptionDto {
  @ApiProperty({ example: 1 })
  id!: number;
  @ApiProperty({ example: 'released parts to ERP' })
  name!: string;
  /** who owns it: events are read with their rights */
  @ApiProperty({ example: 'carol' })
  owner!: string;
  @ApiProperty({ example: ['objects.state'], isArray: true, type: String })
  actions!: string[];
  @ApiProperty({ example: 'Drive Unit', nullable: true, type: String })
  container!: string | null;
  @ApiProperty({ example: 'wt.part.WTPart', nullable: true, type: String })
  type!: string | null;
  @ApiProperty({ example: 'RELEASED', nullable: true, type: String })
  state!: string | null;
  @ApiPropertyOptional({ example: 'https://erp.example.com/pdm-events' })
  url?: string;
  @ApiPropertyOptional({ example: 'pdm.erp' })
  nats?: string;
  @ApiPropertyOptional({ example: 'pdm.mes' })
  amqp?: string;
  /** the last characters of the signing secret (the whole one is shown when it is made) */
  @ApiPropertyOptional({ example: '…aLaSw' })
  secretHint?: string;
  @ApiProperty({ example: true })
  active!: boolean;
  /** why it is paused (a 410 from the receiver, a disabled owner) */
  @ApiProperty({ example: null, nullable: true, type: String })
  pausedReason!: string | null;
  @ApiProperty({ example: '2026-11-27T10:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ example: '2026-11-27T10:00:00.000Z' })
  updatedAt!: string;
}

/** A subscription as it is made or given a new secret: with the secret, shown this once. */
export class CreatedSubscriptionDto extends SubscriptionDto {
  @ApiPropertyOptional({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret?: string;
}

export class SubscriptionListDto {
  @ApiProperty({ example: 1 })
  count!: number;
  @ApiProperty({ type: [SubscriptionDto] })
  items!: SubscriptionDto[];
}

export class DeadLetterDto {
  @ApiProperty({ example: '3' })
  id!: string;
  @ApiProperty({ example: 6 })
  attempts!: number;
  @ApiProperty({ example: 'HTTP 500 (attempt 6)' })
  lastError!: string;
  @ApiProperty({ example: '2026-11-27T10:00:00.000Z' })
  failedAt!: string;
  /** queued for delivery again */
  @ApiProperty({ example: false })
  requeued!: boolean;
  /** the audit event's id */
  @ApiProperty({ example: '1204' })
  eventId!: string;
  /** the event as it is delivered (null when the owner may no longer read it) */
  @ApiProperty({ type: CloudEventDto, nullable: true })
  event!: CloudEventDto | null;
}

export class DeadLetterListDto {
  @ApiProperty({ example: 1 })
  count!: number;
  @ApiProperty({ example: 1 })
  total!: number;
  @ApiProperty({ example: 1 })
  page!: number;
  @ApiProperty({ example: 50 })
  limit!: number;
  @ApiProperty({ type: [DeadLetterDto] })
  items!: DeadLetterDto[];
}

export class RedeliveredDto {
  /** how many dead letters were queued again */
  @ApiProperty({ example: 2 })
  requeued!: number;
}

export class DiscardedDto {
  /** how many dead letters were deleted */
  @ApiProperty({ example: 0 })
  discarded!: number;
}
