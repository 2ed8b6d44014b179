import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { API_LIMIT_DEFAULT, API_LIMIT_MAX, API_START_MAX, FLAG } from '../object-api-params.js';

const ONCE = { message: '$property must be given at most once' };
const FLAG_RULE = { message: '$property must be yes, no, true, false, on, off, 1 or 0' };

/** Paging of api/1.0 lists (`limit` as the original had it, `start` added) and the name filter. */
export class ApiListQueryDto {
  @ApiPropertyOptional({
    description: `items per answer, 1 to ${API_LIMIT_MAX}`,
    default: API_LIMIT_DEFAULT,
    maximum: API_LIMIT_MAX,
    example: 10,
  })
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(API_LIMIT_MAX, { message: `limit must be at most ${API_LIMIT_MAX}` })
  limit: number = API_LIMIT_DEFAULT;

  /** items to skip (0: from the first); the next page starts at start + limit */
  @ApiPropertyOptional({ default: 0, example: 0 })
  @Type(() => Number)
  @IsInt({ message: 'start must be a whole number' })
  @Min(0, { message: 'start must be at least 0' })
  @Max(API_START_MAX, { message: `start must be at most ${API_START_MAX}` })
  start: number = 0;

  /** the name, with wildcards `*` (any characters) and `?` (one character); case-sensitive */
  @IsOptional()
  @IsString(ONCE)
  @MaxLength(1000)
  name?: string;
}

/** Filters of the object lists (documents, epmdocuments, parts). */
export class ObjectListQueryDto extends ApiListQueryDto {
  /** the number, with wildcards `*` and `?` */
  @IsOptional()
  @IsString(ONCE)
  @MaxLength(200)
  number?: string;

  /** the lifecycle state, exactly (RELEASED) */
  @IsOptional()
  @IsString(ONCE)
  @MaxLength(64)
  state?: string;

  /** login name of the iteration's creator */
  @IsOptional()
  @IsString(ONCE)
  @MaxLength(200)
  creator?: string;

  /** login name of the iteration's last modifier */
  @IsOptional()
  @IsString(ONCE)
  @MaxLength(200)
  modifier?: string;

  /** yes (the default): the latest iteration of each object; no: every iteration */
  @ApiPropertyOptional({ enum: ['yes', 'no'], default: 'yes' })
  @IsOptional()
  @IsString(ONCE)
  @Matches(FLAG, FLAG_RULE)
  latest_iteration?: string;

  /** yes: per object the newest iteration in a released state (OBJECTS_RELEASED_STATES); latest_iteration is then not used */
  @ApiPropertyOptional({ enum: ['yes', 'no'], default: 'no' })
  @IsOptional()
  @IsString(ONCE)
  @Matches(FLAG, FLAG_RULE)
  latest_released?: string;
}

/** The object an item route names. */
export class ObjectItemParamDto {
  /** OR:<class>:<id> of an iteration, VR:<class>:<branch id> of a version, or a number (the latest iteration) */
  @IsString()
  oid!: string;
}

/** The user an item route names. */
export class UserItemParamDto {
  /** OR:wt.org.WTUser:<id>, or the login name */
  @ApiProperty({ example: 'alice' })
  @IsString()
  oid!: string;
}
