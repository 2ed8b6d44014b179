import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { given, ObjectTypeQueryDto, ONCE } from './object-request.dto.js';

const MAX_LINE = 2 ** 31 - 1;
const MAX_QUANTITY = 1e12;
const UNIT = /^(?=\S)[^\p{Cc}\p{Zl}\p{Zp}]{1,32}(?<=\S)$/u;
const UNIT_RULE = '1 to 32 printable characters';
const ITERATE =
  'true: make a new iteration first and change that one (the older iteration keeps its links); ' +
  'by default the latest iteration is changed in place, as file changes are';

/** What to change of a link; a field not given is kept. */
export class ChangeUseDto {
  /** how many (a positive number) */
  // Stated here: the plugin would read @IsPositive as minimum 1, but 0.5 is a quantity too.
  @ApiPropertyOptional({ minimum: 0, exclusiveMinimum: true, example: 2 })
  @ValidateIf(given)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'quantity must be a number' })
  @IsPositive({ message: 'quantity must be more than 0' })
  @Max(MAX_QUANTITY, { message: `quantity must be at most ${MAX_QUANTITY}` })
  quantity?: number;

  @ApiPropertyOptional({ description: `unit of the quantity (${UNIT_RULE})`, example: 'ea' })
  @ValidateIf(given)
  @IsString({ message: 'unit must be a string' })
  @Matches(UNIT, { message: `unit must be ${UNIT_RULE}` })
  unit?: string;

  /** line number, unique among the links of the iteration, or null to clear it */
  @ApiPropertyOptional({ type: 'integer', example: 45 })
  @IsOptional()
  @IsInt({ message: 'lineNumber must be a whole number or null' })
  @Min(0, { message: 'lineNumber must be at least 0' })
  @Max(MAX_LINE, { message: `lineNumber must be at most ${MAX_LINE}` })
  lineNumber?: number | null;

  @ApiPropertyOptional({ description: ITERATE, default: false, example: false })
  @ValidateIf(given)
  @IsBoolean({ message: 'iterate must be true or false' })
  iterate?: boolean;
}

/** The object a new link uses. */
export class AddUseMemberDto {
  /**
   * the object to use: its number or the OID of one of its iterations; a part uses parts, a CAD assembly CAD documents
   */
  @ApiProperty({ example: 'P-00000003' })
  @IsString({ message: 'member must be a string' })
  member!: string;
}

/** A new link: the object it uses and the fields of ChangeUseDto, checked alike, with their defaults. */
export class AddUseDto extends IntersectionType(AddUseMemberDto, ChangeUseDto) {
  @ApiPropertyOptional({ default: 1, example: 1 })
  declare quantity?: number;

  @ApiPropertyOptional({ default: 'ea' })
  declare unit?: string;

  /** line number, unique among the links of the iteration; null or absent: none */
  @ApiPropertyOptional({ type: 'integer', example: 40 })
  declare lineNumber?: number | null;
}

export class RemoveUseQueryDto extends ObjectTypeQueryDto {
  @ApiPropertyOptional({ description: ITERATE, enum: ['true', 'false'] })
  @IsOptional()
  @IsString(ONCE)
  @IsIn(['true', 'false'], { message: 'iterate must be true or false' })
  iterate?: string;
}
