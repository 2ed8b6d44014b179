import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const ROW_EXAMPLE = [
  ['OR:wt.doc.WTDocument:2', '0000000001', 'Drive unit specification', 'INWORK', '2026-11-01T08:00:00.000Z'],
];

export class QueryResultDto {
  @ApiProperty({ description: 'Number of rows', example: 1 })
  count!: number;

  @ApiProperty({
    description:
      'Rows: the selected values in select order (strings, numbers, booleans, ISO-8601 timestamps, OIDs, null)',
    type: 'array',
    items: { type: 'array', items: {} },
    example: ROW_EXAMPLE,
  })
  items!: unknown[][];

  @ApiPropertyOptional({ description: 'Present (true) when the result was cut at REPORT_MAX_ROWS', example: true })
  truncated?: boolean;

  @ApiProperty({ description: 'Server time spent, in seconds', example: 0.012 })
  _runtime!: number;
}

export class ResultHeadingDto {
  @ApiProperty({ example: 'Last Modified' })
  heading!: string;

  @ApiProperty({ description: 'XML element name of the column', example: 'Last_Modified' })
  tag!: string;

  @ApiProperty({ example: 'java.sql.Timestamp' })
  type!: string;
}

export class NamedReportResultDto extends QueryResultDto {
  @ApiProperty({ example: 'Documents by number' })
  name!: string;

  @ApiProperty({ type: [ResultHeadingDto] })
  headings!: ResultHeadingDto[];
}
