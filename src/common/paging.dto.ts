import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

/** Page sizes of paged lists (administration, events, catalog objects). */
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 500;

export class PageQueryDto {
  /** page number, from 1 */
  @ApiPropertyOptional({ default: 1, example: 1 })
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be at least 1' })
  @Max(1_000_000, { message: 'page must be at most 1000000' })
  page: number = 1;

  @ApiPropertyOptional({
    description: `rows per page, 1 to ${PAGE_LIMIT_MAX}`,
    default: PAGE_LIMIT_DEFAULT,
    maximum: PAGE_LIMIT_MAX,
    example: PAGE_LIMIT_DEFAULT,
  })
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(PAGE_LIMIT_MAX, { message: `limit must be at most ${PAGE_LIMIT_MAX}` })
  limit: number = PAGE_LIMIT_DEFAULT;
}

/** Fields of every paged list; the items are added by each list's DTO. */
export class PageDto {
  /** rows on this page */
  @ApiProperty({ example: 4 })
  count!: number;

  /** rows on all pages */
  @ApiProperty({ example: 4 })
  total!: number;

  @ApiProperty({ example: 1 })
  page!: number;

  @ApiProperty({ example: 50 })
  limit!: number;
}
