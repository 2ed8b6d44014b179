import { ApiProperty } from '@nestjs/swagger';
import { OidClass } from '../../catalog/oid.js';

export class ContainerRefDto {
  @ApiProperty({ example: 'OR:wt.pdmlink.PDMLinkProduct:1' })
  oid!: string;

  @ApiProperty({ example: 'Drive Unit' })
  name!: string;
}

/** One business object (iteration) of a page. */
export class QueryItemDto {
  @ApiProperty({ example: 'OR:wt.doc.WTDocument:1001' })
  oid!: string;

  @ApiProperty({ example: OidClass.document })
  type!: string;

  /** EPMDocument subtype */
  @ApiProperty({ type: String, example: null })
  subtype!: string | null;

  @ApiProperty({ example: '0000000001' })
  number!: string;

  @ApiProperty({ example: 'Drive unit specification' })
  name!: string;

  @ApiProperty({ example: 'A' })
  version!: string;

  @ApiProperty({ example: 1 })
  iteration!: number;

  @ApiProperty({ example: 'RELEASED' })
  state!: string;

  /** whether this is the latest iteration */
  @ApiProperty({ example: true })
  latest!: boolean;

  container!: ContainerRefDto;

  @ApiProperty({ example: 'alice' })
  createdBy!: string;

  @ApiProperty({ example: '2026-03-02T10:00:00.000Z' })
  created!: string;

  @ApiProperty({ example: '2026-03-04T16:30:00.000Z' })
  modified!: string;

  /** the object's file list in the file service */
  @ApiProperty({ example: 'http://localhost:3000/files/OR:wt.doc.WTDocument:1001' })
  url!: string;
}

/** The reply of open and of every page fetch. */
export class QueryPageDto {
  /** the session; 0 when this reply holds every match and no session was kept */
  @ApiProperty({ example: 17 })
  session_id!: number;

  /** the q objects used, normalized (defaults explicit, timestamps in UTC) */
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    example: [{ type: OidClass.document, number: '00000000*', latest: true }],
  })
  query!: object[];

  /** number of matches the caller may read */
  @ApiProperty({ example: 5 })
  total!: number;

  @ApiProperty({ example: 0 })
  page!: number;

  @ApiProperty({ example: 0 })
  start!: number;

  @ApiProperty({ example: 25 })
  limit!: number;

  /** number of items in this reply */
  @ApiProperty({ example: 2 })
  count!: number;

  items!: QueryItemDto[];

  /** elapsed seconds */
  @ApiProperty({ example: 0.004 })
  _runtime!: number;
}

export class CloseResponseDto {
  @ApiProperty({ example: true })
  success!: boolean;

  @ApiProperty({ example: 17 })
  session_id!: number;
}
