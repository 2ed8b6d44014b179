import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OidClass } from '../../catalog/oid.js';

export class UsageLinkDto {
  @ApiProperty({ example: 'OR:wt.part.WTPartUsageLink:12' })
  oid!: string;

  @ApiProperty({ example: 2 })
  quantity!: number;

  @ApiProperty({ example: 'ea' })
  unit!: string;

  @ApiProperty({ type: 'integer', example: 10 })
  lineNumber!: number | null;
}

export class StructureNodeDto {
  /** depth below (structure) or above (where-used) the object; 0 for itself */
  @ApiProperty({ example: 1 })
  level!: number;

  /** the usage link: in a structure, from the node above to this one; in where-used, from this node to the one below */
  link?: UsageLinkDto;

  /** the latest iteration (null when restricted, or for a used object without any iteration) */
  @ApiProperty({ example: 'OR:wt.part.WTPart:3' })
  oid!: string | null;

  @ApiProperty({ example: 'P-00000002' })
  number!: string | null;

  @ApiProperty({ example: 'Gear housing' })
  name!: string | null;

  @ApiProperty({ example: OidClass.part })
  class!: string | null;

  /** CAD document subtype */
  @ApiProperty({ example: null })
  subtype!: string | null;

  @ApiProperty({ example: 'A' })
  version!: string | null;

  @ApiProperty({ type: 'integer', example: 1 })
  iteration!: number | null;

  @ApiProperty({ example: 'INWORK' })
  state!: string | null;

  /** the object is in a container the caller may not read: only the link is shown, nothing below it */
  @ApiPropertyOptional({ example: true })
  restricted?: true;

  /** the object already appears on the path to this node: not followed again */
  @ApiPropertyOptional({ example: true })
  cycle?: true;

  /** the nodes one level further, ordered by line number, then number (empty at the last level) */
  children!: StructureNodeDto[];
}

export class StructureDto {
  /** levels followed */
  @ApiProperty({ example: 100 })
  levels!: number;

  /** nodes in the answer, the object itself included */
  @ApiProperty({ example: 3 })
  nodes!: number;

  /** most nodes an answer holds (OBJECTS_STRUCTURE_MAX_NODES) */
  @ApiProperty({ example: 10000 })
  nodeLimit!: number;

  /** true when nodes were left out past nodeLimit (levels are filled from the top) */
  @ApiProperty({ example: false })
  truncated!: boolean;

  /** the object itself, its structure below it (or its users above) */
  root!: StructureNodeDto;
}
