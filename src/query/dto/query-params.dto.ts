import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ASSOCIATION_NAMES } from '../associations/association-names.js';

/** URL and form parameters arrive as text: a decimal integer becomes a number, anything else stays and fails @IsInt. */
function integerText({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
}

/** A parameter given once arrives as text, repeated as an array: always an array. */
function listOf({ value }: { value: unknown }): unknown {
  return typeof value === 'string' ? [value] : value;
}

/** Most fields or associations one query may ask for. */
export const MAX_NAMES = 50;
const MAX_NAME_LENGTH = 200;

const Q_EXAMPLE = '{"type":"wt.doc.WTDocument","number":"00000000*","state":["INWORK","RELEASED"]}';

/**
 * Parameters ExtJS stores and proxies send (`_dc` against caches, `sort`/`dir`, `filter`, `group`
 * with remote sorting, filtering or grouping): accepted and ignored, so that such a store works
 * unchanged. The order of a session is its q's `sort`.
 */
export class ExtJsParamsDto {
  /** ExtJS's cache buster: ignored */
  @ApiPropertyOptional({ type: String })
  @Allow()
  _dc?: unknown;

  /** ExtJS's remote sort: ignored (sort inside q instead) */
  @ApiPropertyOptional({ type: String })
  @Allow()
  sort?: unknown;

  /** ExtJS's sort direction: ignored */
  @ApiPropertyOptional({ type: String })
  @Allow()
  dir?: unknown;

  /** ExtJS's remote filter: ignored */
  @ApiPropertyOptional({ type: String })
  @Allow()
  filter?: unknown;

  /** ExtJS's remote grouping: ignored */
  @ApiPropertyOptional({ type: String })
  @Allow()
  group?: unknown;
}

/**
 * Page position: the page starts at start + page × limit; when start is page × limit (as ExtJS
 * sends them: page zero-based, start its offset), at start.
 */
export class PagingParamsDto extends ExtJsParamsDto {
  /** zero-based page number */
  @ApiPropertyOptional({ default: 0, example: 0 })
  @IsOptional()
  @Transform(integerText)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  page?: number;

  /** start offset, added to page × limit (unless it is page × limit: then the page starts there) */
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

  @ApiPropertyOptional({
    description:
      "the original gateway's name of q in a JSON body: an array of q objects, OR-ed (as several q). " +
      'Keys of the original (config_spec, creator …) are read as docs/query.md says.',
    type: 'array',
    items: { type: 'object' },
  })
  // Checked by the q parser, as q is.
  @Allow()
  qq?: unknown;

  /** properties of each item, by catalog name (CADName, state, location …, attributes.<name>); repeatable */
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @Transform(listOf)
  @IsArray({ message: 'fields must be an array of property names' })
  @ArrayMaxSize(MAX_NAMES)
  @IsString({ each: true, message: 'fields must be property names' })
  @MaxLength(MAX_NAME_LENGTH, { each: true })
  fields?: string[];

  /** the original gateway's URL name of fields: repeat it for several */
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @Transform(listOf)
  @IsArray({ message: 'field must be property names' })
  @ArrayMaxSize(MAX_NAMES)
  @IsString({ each: true, message: 'field must be property names' })
  @MaxLength(MAX_NAME_LENGTH, { each: true })
  field?: string[];

  /** arrays added to each item; repeatable */
  @ApiPropertyOptional({ type: [String], enum: [...ASSOCIATION_NAMES] })
  @IsOptional()
  @Transform(listOf)
  @IsArray({ message: 'associations must be an array of association names' })
  @ArrayMaxSize(MAX_NAMES)
  @IsString({ each: true, message: 'associations must be association names' })
  @MaxLength(MAX_NAME_LENGTH, { each: true })
  associations?: string[];

  /** the original gateway's URL name of associations: repeat it for several */
  @ApiPropertyOptional({ type: [String], enum: [...ASSOCIATION_NAMES] })
  @IsOptional()
  @Transform(listOf)
  @IsArray({ message: 'assoc must be association names' })
  @ArrayMaxSize(MAX_NAMES)
  @IsString({ each: true, message: 'assoc must be association names' })
  @MaxLength(MAX_NAME_LENGTH, { each: true })
  assoc?: string[];

  /** sent by the original gateway's mobile client (always 0): accepted and ignored */
  @ApiPropertyOptional()
  @IsOptional()
  @Transform(integerText)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  pos?: number;
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
