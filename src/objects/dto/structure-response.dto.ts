import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OidClass } from '../../common/oid.js';

export class UsageLinkDto {
  @ApiProperty({ example: 'OR:wt.part.WTPartUsageLink:12' })
  oid!: string;

  @ApiProperty({ example: 2 })
  quantity!: number;

  @ApiProperty({ example: 'ea' })
  unit!: string;

  @ApiProperty({ type: 'integer', nullable: true, example: 10 })
  lineNumber!: number | null;
}

export class StructureNodeDto {
  @ApiProperty({ description: 'depth below (structure) or above (where-used) the object; 0 for itself', example: 1 })
  level!: number;

  @ApiPropertyOptional({
    type: UsageLinkDto,
    description:
      'the usage link: in a structure, from the node above to this one; in where-used, from this node to the one below',
  })
  link?: UsageLinkDto;

  @ApiProperty({
    nullable: true,
    description: 'the latest iteration (null when restricted, or for a used object without any iteration)',
    example: 'OR:wt.part.WTPart:3',
  })
  oid!: string | null;

  @ApiProperty({ nullable: true, example: 'P-00000002' })
  number!: string | null;

  @ApiProperty({ nullable: true, example: 'Gear housing' })
  name!: string | null;

  @ApiProperty({ nullable: true, example: OidClass.part })
  class!: string | null;

  @ApiProperty({ nullable: true, description: 'CAD document subtype', example: null })
  subtype!: string | null;

  @ApiProperty({ nullable: true, example: 'A' })
  version!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 1 })
  iteration!: number | null;

  @ApiProperty({ nullable: true, example: 'INWORK' })
  state!: string | null;

  @ApiPropertyOptional({
    description: 'the object is in a container the caller may not read: only the link is shown, nothing below it',
    example: true,
  })
  restricted?: true;

  @ApiPropertyOptional({
    description: 'the object already appears on the path to this node: not followed again',
    example: true,
  })
  cycle?: true;

  @ApiProperty({
    type: () => [StructureNodeDto],
    description: 'the nodes one level further, ordered by line number, then number (empty at the last level)',
  })
  children!: StructureNodeDto[];
}

export class StructureDto {
  @ApiProperty({ description: 'levels followed', example: 100 })
  levels!: number;

  @ApiProperty({ description: 'nodes in the answer, the object itself included', example: 3 })
  nodes!: number;

  @ApiProperty({ description: 'most nodes an answer holds (OBJECTS_STRUCTURE_MAX_NODES)', example: 10000 })
  nodeLimit!: number;

  @ApiProperty({
    description: 'true when nodes were left out past nodeLimit (levels are filled from the top)',
    example: false,
  })
  truncated!: boolean;

  @ApiProperty({
    type: StructureNodeDto,
    description: 'the object itself, its structure below it (or its users above)',
  })
  root!: StructureNodeDto;
}
