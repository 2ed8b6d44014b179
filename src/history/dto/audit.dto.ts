import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageDto, PageQueryDto } from '../../common/paging.dto.js';
import { OidClass } from '../../catalog/oid.js';

const ONCE = { message: '$property must be given at most once' };

/** One audit event as the history and the administrators' listing answer it. */
export class AuditEventDto {
  /** the event (wt.audit.AuditRecord in QML) */
  @ApiProperty({ example: 'OR:wt.audit.AuditRecord:42' })
  oid!: string;

  /** when the change was made (its transaction began) */
  @ApiProperty({ example: '2026-11-24T09:30:00.000Z' })
  at!: string;

  /** who made it (the name is kept when the user is deleted) */
  @ApiProperty({ example: 'alice' })
  user!: string;

  /** <service>.<verb> (docs/admin.md lists them) */
  @ApiProperty({ example: 'files.upload' })
  action!: string;

  /** what was changed: a business object by its master (all iterations share it), a user, a container … */
  @ApiProperty({ example: 'OR:wt.doc.WTDocumentMaster:1' })
  object!: string | null;

  /** the number of the business object (the name of a user, container or template) */
  @ApiProperty({ example: '0000000001' })
  number!: string | null;

  /** its container */
  @ApiProperty({ example: 'Drive Unit' })
  container!: string | null;

  /**
   * what changed, before and after, where small: names, states, sizes, SHA-256 digests; in a history, another
   * object the caller may not read is `{ "restricted": true }`
   */
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { fileName: 'spec.txt', iteration: 'A.1', after: { role: 'PRIMARY', size: 6, sha256: '…' } },
  })
  detail!: Record<string, unknown> | null;
}

export class HistoryObjectDto {
  /** the master (every iteration shares its history) */
  @ApiProperty({ example: 'OR:wt.part.WTPartMaster:11' })
  oid!: string;

  @ApiProperty({ example: OidClass.part })
  class!: string;

  @ApiProperty({ example: 'P-00000001' })
  number!: string;

  @ApiProperty({ example: 'Drive unit' })
  name!: string;

  @ApiProperty({ example: 'Drive Unit' })
  container!: string;
}

export class HistoryDto extends PageDto {
  object!: HistoryObjectDto;

  /** newest first */
  items!: AuditEventDto[];
}

export class AuditEventListDto extends PageDto {
  /** newest first */
  items!: AuditEventDto[];
}

export class HistoryRefParamDto {
  /**
   * OID of an iteration (OR:wt.part.WTPart:<id>) or of a master (OR:wt.part.WTPartMaster:<id>), or the number of a
   * business object
   */
  @ApiProperty({ example: '0000000001' })
  @IsString()
  ref!: string;
}

export class HistoryQueryDto extends PageQueryDto {
  /**
   * class of the object a number names (wt.doc.WTDocument, wt.part.WTPart, wt.change2.WTChangeOrder2 …: a versioned
   * class of the catalog); needed only when several classes carry the number
   */
  @IsOptional()
  @IsString(ONCE)
  type?: string;
}

export class EventsQueryDto extends PageQueryDto {
  /** only events of this user (by name) */
  @ApiPropertyOptional({ example: 'admin' })
  @IsOptional()
  @IsString(ONCE)
  @MaxLength(64, { message: 'user must be at most 64 characters' })
  user?: string;

  /**
   * only events of this object: an OID (an iteration or master of a business object, a user, a container, a report
   * template, a workspace) or a number (or the name of a user, container, template): e.g. `0000000001`
   */
  @IsOptional()
  @IsString(ONCE)
  @MaxLength(200, { message: 'object must be at most 200 characters' })
  object?: string;

  /** only events at or after this time (ISO 8601), e.g. `2026-11-24T00:00:00Z` */
  @IsOptional()
  @IsString(ONCE)
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date or time, e.g. 2026-11-24T00:00:00Z' })
  from?: string;

  /** only events before this time (ISO 8601), e.g. `2026-11-25` */
  @IsOptional()
  @IsString(ONCE)
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date or time, e.g. 2026-11-25T00:00:00Z' })
  to?: string;

  /** only this action (`files.upload`), or the actions starting with a prefix ending in `*` (`admin.*`) */
  @IsOptional()
  @IsString(ONCE)
  @Matches(/^[a-z][a-z0-9_.-]{0,99}\*?$/, {
    message: 'action must be an action such as files.upload, or a prefix ending in * such as admin.*',
  })
  action?: string;
}
