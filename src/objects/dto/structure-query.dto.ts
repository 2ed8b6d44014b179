import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

const ONCE = { message: '$property must be given at most once' };

export class ObjectRefParamDto {
  /** OID of an iteration (OR:wt.part.WTPart:<id>) or the number of a business object (its latest iteration) */
  @ApiProperty({ example: 'P-00000001' })
  @IsString()
  ref!: string;
}

export class StructureQueryDto {
  /** levels to follow: 1 (the default), a number of levels, or max (every level, up to 100) */
  @ApiPropertyOptional({ example: 'max' })
  @IsOptional()
  @IsString(ONCE)
  levels?: string;

  /**
   * class of the object a number names (wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart); needed only when
   * several classes carry the number
   */
  @IsOptional()
  @IsString(ONCE)
  type?: string;
}
