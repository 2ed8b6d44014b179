import { ApiProperty } from '@nestjs/swagger';
import { OidClass } from '../../catalog/oid.js';
import { ContainerRefDto } from '../../common/container-ref.dto.js';

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

/**
 * An item of a query that asked for fields: its OID and each field (null where its class has no
 * such property), in the order asked; associations add an array each.
 */
export type QueryPickedItem = { oid: string } & Record<string, unknown>;

/** An item of a reply: the default item, or the fields asked for; with an array per association asked for. */
export type QueryItem = QueryItemDto | QueryPickedItem;

const ITEMS_ABOUT =
  'the matches of this page. Without fields: the object as shown. With fields: oid and the fields asked for ' +
  '(null where the class has no such property). Each association asked for adds an array (files, ibas, …).';

/** The reply of open and of every page fetch. */
export class QueryPageDto {
  /** always true (the original gateway's clients check it) */
  @ApiProperty({ example: true })
  success!: true;

  /** the session; 0 when this reply holds every match and no session was kept */
  @ApiProperty({ example: 17 })
  session_id!: number;

  /** the same as session_id, as the original gateway's clients read it */
  @ApiProperty({ example: 17 })
  session!: number;

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

  /** the same as total, as the original gateway's clients (ExtJS stores) read it */
  @ApiProperty({ example: 5 })
  total_count!: number;

  @ApiProperty({ example: 0 })
  page!: number;

  @ApiProperty({ example: 0 })
  start!: number;

  @ApiProperty({ example: 25 })
  limit!: number;

  /** number of items in this reply */
  @ApiProperty({ example: 2 })
  count!: number;

  @ApiProperty({ type: [QueryItemDto], description: ITEMS_ABOUT })
  items!: QueryItem[];

  /** elapsed seconds */
  @ApiProperty({ example: 0.004 })
  _runtime!: number;
}

export class CloseResponseDto {
  @ApiProperty({ example: true })
  success!: boolean;

  @ApiProperty({ example: 17 })
  session_id!: number;

  /** the same as session_id, as the original gateway's clients read it */
  @ApiProperty({ example: 17 })
  session!: number;
}
