import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import type { CloudEvent } from '../../cloud-event.js';

export const FEED_MAX_LIMIT = 1000;
export const FEED_MAX_WAIT_S = 30;

export class FeedQueryDto {
  /** the `cursor` of the previous answer; absent: from the oldest event kept */
  @ApiPropertyOptional({ example: '0' })
  @IsOptional()
  @Matches(/^(0|[1-9][0-9]{0,17})$/, { message: 'after must be a cursor (a whole number) from an earlier answer' })
  after?: string;

  /** most events in the answer (1–1000) */
  @ApiPropertyOptional({ example: 100, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(FEED_MAX_LIMIT, { message: `limit must be at most ${FEED_MAX_LIMIT}` })
  limit?: number;

  /** seconds to wait for an event when there is none yet (0–30) */
  @ApiPropertyOptional({ example: 1, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'wait must be a whole number of seconds' })
  @Min(0, { message: 'wait must be at least 0' })
  @Max(FEED_MAX_WAIT_S, { message: `wait must be at most ${FEED_MAX_WAIT_S}` })
  wait?: number;
}

/** A change event: CloudEvents 1.0, structured JSON (docs/events.md lists the types and data). */
export class CloudEventDto {
  @ApiProperty({ example: '1.0' })
  specversion!: '1.0';
  /** the audit event's id: the same on every delivery, for dropping duplicates */
  @ApiProperty({ example: '1204' })
  id!: string;
  /** EVENTS_SOURCE */
  @ApiProperty({ example: 'urn:pdm-services' })
  source!: string;
  @ApiProperty({ example: 'pdm.object.state-changed' })
  type!: string;
  /** the OID of what changed */
  @ApiPropertyOptional({ example: 'OR:wt.part.WTPartMaster:11' })
  subject?: string;
  @ApiProperty({ example: '2026-11-27T10:00:00.000Z' })
  time!: string;
  @ApiProperty({ example: 'application/json' })
  datacontenttype!: 'application/json';
  /** the event's place in the feed (the CloudEvents sequence extension) */
  @ApiProperty({ example: '1200' })
  sequence!: string;
  /** `action`, `user`, `object` {oid, number, name, type, container} and `detail` (before and after) */
  @ApiProperty({
    type: Object,
    example: {
      action: 'objects.state',
      user: 'alice',
      object: {
        oid: 'OR:wt.part.WTPartMaster:11',
        number: '0000000011',
        name: 'Gear',
        type: 'wt.part.WTPart',
        container: 'Drive Unit',
      },
      detail: { from: 'INWORK', to: 'RELEASED', version: 'A.1' },
    },
  })
  data!: CloudEvent['data'];
}

export class FeedDto {
  /** oldest first */
  @ApiProperty({ type: [CloudEventDto] })
  events!: CloudEventDto[];

  /** where the next request goes on: `after=<cursor>` */
  @ApiProperty({ example: '1234' })
  cursor!: string;

  /** events after `after` were pruned before they were read (EVENTS_RETENTION_HOURS) */
  @ApiProperty({ example: false })
  missed!: boolean;
}

export class SubscriptionStatsDto {
  @ApiProperty({ example: 1 })
  id!: number;
  @ApiProperty({ example: 'released parts to ERP' })
  name!: string;
  @ApiProperty({ example: true })
  active!: boolean;
  /** the last event handled (delivered, left out by the filter, or given up on) */
  @ApiProperty({ example: '1200' })
  cursor!: string;
  /** events of the feed after the cursor (before the filter) */
  @ApiProperty({ example: 3 })
  backlog!: number;
  /** when the oldest of them was committed */
  @ApiProperty({ example: '2026-11-27T10:00:00.000Z', nullable: true, type: String })
  oldestUndelivered!: string | null;
  @ApiProperty({ example: '42' })
  delivered!: string;
  /** failed attempts in all */
  @ApiProperty({ example: '2' })
  failures!: string;
  /** failed attempts of the next event */
  @ApiProperty({ example: 0 })
  attempts!: number;
  @ApiProperty({ example: null, nullable: true, type: String })
  nextAttemptAt!: string | null;
  @ApiProperty({ example: null, nullable: true, type: String })
  lastError!: string | null;
  @ApiProperty({ example: 0 })
  deadLetters!: number;
  @ApiProperty({ example: '2026-11-27T10:00:00.000Z', nullable: true, type: String })
  lastDeliveredAt!: string | null;
}

export class EventStatsDto {
  /** the feed's newest cursor */
  @ApiProperty({ example: '1203' })
  head!: string;
  /** the oldest event kept and when it was committed */
  @ApiProperty({ example: '1', type: String })
  oldest!: string;
  @ApiProperty({ example: '2026-11-20T10:00:00.000Z', nullable: true, type: String })
  oldestAt!: string | null;
  /** the subscriptions the caller sees */
  @ApiProperty({ type: [SubscriptionStatsDto] })
  subscriptions!: SubscriptionStatsDto[];
}
