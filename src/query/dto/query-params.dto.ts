import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

/** URL and form parameters arrive as text: a decimal integer becomes a number, anything else stays and fails @IsInt. */
function integerText({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
}

const Q_EXAMPLE = '{"type":"wt.doc.WTDocument","number":"00000000*","state":["INWORK","RELEASED"]}';

/** Page position: the page starts at start + page × limit. */
export class PagingParamsDto {
  /** zero-based page number */
  @ApiPropertyOptional({ default: 0, example: 0 })
  @IsOptional()
  @Transform(integerText)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  page?: number;

  /** start offset, added to page × limit */
  @ApiPropertyOptional({ default: 0, example: 0 })
  @IsOptional()
  @Transform(integerText)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  start?: number;

  /** page size, 1 to QUERY_MAX_LIMIT (default 1000) */
  @ApiPropertyOptional({ default: 25, example: 2 })
  @IsOptional()
  @Transform(integerText)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  limit?: number;
}

/** Parameters that open a session (URL, JSON body or form body). */
export class OpenQueryParamsDto extends PagingParamsDto {
  @ApiProperty({
    description:
      'the query: a JSON object of the q language (docs/query.md); repeat it to OR several queries. ' +
      'In a JSON body it may also be an object or an array of objects.',
    type: [String],
    example: [Q_EXAMPLE],
    required: false,
  })
  // Checked by the q parser, which names the offending key in its message.
  @Allow()
  q?: unknown;
}

/** Parameters of a page fetch. */
export class FetchPageParamsDto extends PagingParamsDto {
  /** 1 closes the session after this page */
  @ApiPropertyOptional({ enum: [0, 1], default: 0 })
  @IsOptional()
  @Transform(integerText)
  @IsIn([0, 1], { message: 'close must be 0 or 1' })
  close?: number;
}
