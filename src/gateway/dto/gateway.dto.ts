import { ApiProperty } from '@nestjs/swagger';

export class GatewayVersionDto {
  /**
   * the level of the original gateway's interface the service offers: dotted numbers, at least
   * two (clients of the gateway need 1.5 or later)
   */
  @ApiProperty({ example: '1.5.0' })
  version!: string;

  /** build number of the service */
  @ApiProperty({ example: 42 })
  build!: number;

  /** build date, YYYY-MM-DD */
  @ApiProperty({ example: '2026-11-21' })
  date!: string;
}

export class PluginDto {
  /** name of the service */
  @ApiProperty({ example: 'pdm.reports' })
  name!: string;

  /** the service's version, as its own `<service>/version` gives it */
  @ApiProperty({ example: '0.1.0' })
  version!: string;

  /** build number of the service, as a string */
  @ApiProperty({ example: '42' })
  build!: string;

  /** build date, YYYY-MM-DD */
  @ApiProperty({ example: '2026-11-21' })
  date!: string;

  @ApiProperty({ example: 'PDM report service: report templates, named reports and QML queries' })
  description!: string;

  /** the service's part of Swagger UI */
  @ApiProperty({ example: 'http://localhost:3000/docs#/reports' })
  doc_url!: string;

  /** always null (the gateway named a Python module here) */
  @ApiProperty({ type: String, nullable: true, example: null })
  module!: string | null;

  /** the service's route group: its addresses are `<base>/<blueprint>/…` and `<gateway>/services/<blueprint>/…` */
  @ApiProperty({ example: 'reports' })
  blueprint!: string;
}

export class PluginIndexDto {
  /** number of items */
  @ApiProperty({ example: 6 })
  count!: number;

  /** one per service */
  items!: PluginDto[];

  /** time the request took, in seconds */
  @ApiProperty({ example: 0.0001 })
  _runtime!: number;
}
