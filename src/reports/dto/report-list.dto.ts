import { ApiProperty } from '@nestjs/swagger';

export class ReportListItemDto {
  /** Executes the report; report parameters go in URL parameters */
  @ApiProperty({ example: 'http://localhost:3000/reports/Documents%20by%20number' })
  url!: string;

  /** JSON details of the template */
  @ApiProperty({ example: 'http://localhost:3000/reports/api/1.0/templates/OR%3Awt.query.template.ReportTemplate%3A1' })
  report_url!: string;

  @ApiProperty({ example: 'OR:wt.query.template.ReportTemplate:1' })
  oid!: string;

  @ApiProperty({ example: 'Documents by number' })
  name!: string;
}

export class ReportListDto {
  /** Number of items */
  @ApiProperty({ example: 1 })
  count!: number;

  items!: ReportListItemDto[];

  /** Server time spent, in seconds */
  @ApiProperty({ example: 0.004 })
  _runtime!: number;
}
