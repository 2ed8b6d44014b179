import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A listed object: a pointer to its item answer. */
export class ObjectPointerDto {
  @ApiProperty({ example: 'OR:wt.epm.EPMDocument:13' })
  oid!: string;

  @ApiProperty({ example: 'drive_unit.asm' })
  name!: string;

  @ApiProperty({ example: '0000500001' })
  number!: string;

  /** the object's item answer */
  @ApiProperty({ example: 'http://localhost:3000/api/1.0/epmdocuments/OR:wt.epm.EPMDocument:13' })
  url!: string;
}

export class ObjectListDto {
  /** number of items in this answer */
  @ApiProperty({ example: 1 })
  count!: number;

  items!: ObjectPointerDto[];

  /** elapsed seconds */
  @ApiProperty({ example: 0.004 })
  _runtime!: number;
}

/** A listed user: a pointer to their item answer. */
export class UserPointerDto {
  @ApiProperty({ example: 'OR:wt.org.WTUser:2' })
  oid!: string;

  @ApiProperty({ example: 'alice' })
  name!: string;

  @ApiProperty({ example: 'http://localhost:3000/api/1.0/users/OR:wt.org.WTUser:2' })
  url!: string;
}

export class ApiUserListDto {
  /** number of items in this answer */
  @ApiProperty({ example: 4 })
  count!: number;

  items!: UserPointerDto[];

  /** elapsed seconds */
  @ApiProperty({ example: 0.002 })
  _runtime!: number;
}

/** A user as api/1.0 shows them to every signed-in user. */
export class ApiUserItemDto {
  @ApiProperty({ example: 'OR:wt.org.WTUser:2' })
  oid!: string;

  @ApiProperty({ example: 'http://localhost:3000/api/1.0/users/OR:wt.org.WTUser:2' })
  url!: string;

  /** the same as url: there is no other view of a user every user may read */
  @ApiProperty({ example: 'http://localhost:3000/api/1.0/users/OR:wt.org.WTUser:2' })
  details!: string;

  /** login name */
  @ApiProperty({ example: 'alice' })
  name!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Alice Author' })
  fullName!: string | null;

  /** elapsed seconds */
  @ApiProperty({ example: 0.002 })
  _runtime!: number;
}

/** The creator or modifier of an iteration. */
export class PrincipalDto {
  @ApiProperty({ example: 'OR:wt.org.WTUser:2' })
  oid!: string;

  @ApiProperty({ example: 'http://localhost:3000/api/1.0/users/OR:wt.org.WTUser:2' })
  url!: string;

  /** the same as url */
  @ApiProperty({ example: 'http://localhost:3000/api/1.0/users/OR:wt.org.WTUser:2' })
  details!: string;

  /** login name */
  @ApiProperty({ example: 'alice' })
  name!: string;
}

/** The details of an iteration (`item` of the item answer). */
export class ObjectDetailsDto {
  @ApiProperty({ example: 'OR:wt.epm.EPMDocument:13' })
  oid!: string;

  @ApiProperty({ example: 'drive_unit.asm' })
  name!: string;

  @ApiProperty({ example: '0000500001' })
  number!: string;

  /** CAD documents only: the file name (their name) */
  @ApiPropertyOptional({ example: 'drive_unit.asm' })
  cadname?: string;

  /** CAD documents only: CADASSEMBLY, CADCOMPONENT or CADDRAWING */
  @ApiPropertyOptional({ type: String, nullable: true, example: 'CADASSEMBLY' })
  doctype?: string | null;

  /** the class, or the soft type when the object has one */
  @ApiProperty({ example: 'wt.epm.EPMDocument' })
  type!: string;

  @ApiProperty({ example: 'INWORK' })
  state!: string;

  /** version.iteration */
  @ApiProperty({ example: 'A.1' })
  version!: string;

  /** the container, as a folder path */
  @ApiProperty({ example: '/Drive Unit' })
  location!: string;

  /** location/name */
  @ApiProperty({ example: '/Drive Unit/drive_unit.asm' })
  path!: string;

  /** UTC, to the second, without zone */
  @ApiProperty({ example: '2026-03-02T10:00:00' })
  created!: string;

  /** UTC, to the second, without zone */
  @ApiProperty({ example: '2026-03-04T16:30:00' })
  modified!: string;

  creator!: PrincipalDto;

  modifier!: PrincipalDto;

  /** always false: objects are not checked out here */
  @ApiProperty({ example: false })
  isCheckedOut!: boolean;

  @ApiProperty({ example: true })
  isLatestIteration!: boolean;
}

/** One iteration in the original gateway's item shape. */
export class ObjectItemDto {
  @ApiProperty({ example: 'OR:wt.epm.EPMDocument:13' })
  oid!: string;

  /** this answer */
  @ApiProperty({ example: 'http://localhost:3000/api/1.0/epmdocuments/OR:wt.epm.EPMDocument:13' })
  url!: string;

  /** the object in the objects service (GET /objects/<oid>) */
  @ApiProperty({ example: 'http://localhost:3000/objects/OR:wt.epm.EPMDocument:13' })
  details!: string;

  @ApiProperty({ example: 'drive_unit.asm' })
  name!: string;

  @ApiProperty({ example: '0000500001' })
  number!: string;

  /** CAD documents only: the file name (their name) */
  @ApiPropertyOptional({ example: 'drive_unit.asm' })
  cadname?: string;

  /** version.iteration */
  @ApiProperty({ example: 'A.1' })
  version!: string;

  /** UTC, to the second, without zone */
  @ApiProperty({ example: '2026-03-04T16:30:00' })
  modified!: string;

  /** /container/name */
  @ApiProperty({ example: '/Drive Unit/drive_unit.asm' })
  path!: string;

  item!: ObjectDetailsDto;

  /** elapsed seconds */
  @ApiProperty({ example: 0.003 })
  _runtime!: number;
}
