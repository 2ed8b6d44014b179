import { ApiProperty } from '@nestjs/swagger';

export class ReportListItemDto {
  @ApiProperty({
    description: 'Executes the report; report parameters go in URL parameters',
    example: 'http://localhost:3000/reports/Documents%20by%20number',
  })
  url!: string;

  @ApiProperty({
    description: 'JSON details of the template',
    example: 'http://localhost:3000/reports/api/1.0/templates/OR%3Awt.query.template.ReportTemplate%3A1',
  })
  report_url!: string;

  @ApiProperty({ example: 'OR:wt.query.template.ReportTemplate:1' })
  oid!: string;

  @ApiProperty({ example: 'Documents by number' })
  name!: string;
}

export class ReportListDto {
  @ApiProperty({ description: 'Number of items', example: 1 })
  count!: number;

  @ApiProperty({ type: [ReportListItemDto] })
  items!: ReportListItemDto[];

  @ApiProperty({ description: 'Server time spent, in seconds', example: 0.004 })
  _runtime!: number;
}
