import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';

/**
 * URL parameters of the reports routes. They are read with ReportQuery (report-query.decorator.ts),
 * which drops keys the DTO does not name instead of refusing them: these routes have always
 * ignored other parameters, and a named report's parameters are keys of its own.
 */

// A repeated URL parameter arrives as an array; these routes have always read it as absent.
const onceOrAbsent = ({ value }: { value: unknown }): string | undefined =>
  typeof value === 'string' ? value : undefined;

export class ListReportsQueryDto {
  @ApiPropertyOptional({ description: 'Name pattern: * any characters, ? one character', example: 'Doc*' })
  @IsOptional()
  @Transform(onceOrAbsent)
  name?: string;

  /** Checked by the service: a positive integer. */
  @ApiPropertyOptional({ description: 'Most items to return', type: 'integer', minimum: 1, example: 10 })
  @IsOptional()
  @Transform(onceOrAbsent)
  limit?: string;

  @ApiPropertyOptional({ description: 'Only templates of this container', example: 'Drive Unit' })
  @IsOptional()
  @Transform(onceOrAbsent)
  container?: string;
}

export class PutReportQueryDto {
  @ApiPropertyOptional({ description: 'Container name; required to create', example: 'Drive Unit' })
  @IsOptional()
  @Transform(onceOrAbsent)
  container?: string;

  @ApiPropertyOptional({ example: 'What the report shows' })
  @IsOptional()
  @Transform(onceOrAbsent)
  description?: string;
}

/** The one fixed key of a named report's URL; every other key is one of the report's parameters. */
export class NamedReportQueryDto {
  /** Raw: a repeated or unknown format is refused by requestedFormat with its own message. */
  @ApiPropertyOptional({
    description: 'Result format (else Accept; XML by default)',
    enum: ['xml', 'json', 'csv'],
  })
  @IsOptional()
  format?: unknown;
}
