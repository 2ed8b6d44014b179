import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const ROW_EXAMPLE = [
  ['OR:wt.doc.WTDocument:2', '0000000001', 'Drive unit specification', 'INWORK', '2026-11-01T08:00:00.000Z'],
];

export class QueryResultDto {
  /** Number of rows */
  @ApiProperty({ example: 1 })
  count!: number;

  /** Rows: the selected values in select order (strings, numbers, booleans, ISO-8601 timestamps, OIDs, null) */
  @ApiProperty({ type: 'array', items: { type: 'array', items: {} }, example: ROW_EXAMPLE })
  items!: unknown[][];

  /** Present (true) when the result was cut at REPORT_MAX_ROWS */
  @ApiPropertyOptional({ example: true })
  truncated?: boolean;

  /** Server time spent, in seconds */
  @ApiProperty({ example: 0.012 })
  _runtime!: number;
}

export class ResultHeadingDto {
  @ApiProperty({ example: 'Last Modified' })
  heading!: string;

  /** XML element name of the column */
  @ApiProperty({ example: 'Last_Modified' })
  tag!: string;

  @ApiProperty({ example: 'java.sql.Timestamp' })
  type!: string;
}

export class NamedReportResultDto extends QueryResultDto {
  @ApiProperty({ example: 'Documents by number' })
  name!: string;

  headings!: ResultHeadingDto[];
}
