import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
import { ObjectTypeQueryDto } from './object-request.dto.js';

const ONCE = { message: '$property must be given at most once' };
const given = (_: object, v: unknown) => v !== undefined;
const MAX_LINE = 2 ** 31 - 1;
const MAX_QUANTITY = 1e12;
const UNIT = /^(?=\S)[^\p{Cc}\p{Zl}\p{Zp}]{1,32}(?<=\S)$/u;
const UNIT_RULE = '1 to 32 printable characters';
const ITERATE =
  'true: make a new iteration first and change that one (the older iteration keeps its links); ' +
  'by default the latest iteration is changed in place, as file changes are';

export class AddUseDto {
  /** the object to use: its number or the OID of one of its iterations; a part uses parts, a CAD assembly CAD documents */
  @ApiProperty({ example: 'P-00000003' })
  @IsString({ message: 'member must be a string' })
  member!: string;

  /** how many (a positive number) */
  @ApiPropertyOptional({ default: 1, example: 1 })
  @ValidateIf(given)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'quantity must be a number' })
  @IsPositive({ message: 'quantity must be more than 0' })
  @Max(MAX_QUANTITY, { message: `quantity must be at most ${MAX_QUANTITY}` })
  quantity?: number;

  @ApiPropertyOptional({ description: `unit of the quantity (${UNIT_RULE})`, default: 'ea', example: 'ea' })
  @ValidateIf(given)
  @IsString({ message: 'unit must be a string' })
  @Matches(UNIT, { message: `unit must be ${UNIT_RULE}` })
  unit?: string;

  /** line number, unique among the links of the iteration; null or absent: none */
  @ApiPropertyOptional({ type: 'integer', example: 40 })
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

/** What to change of a link; a field not given is kept. */
export class ChangeUseDto {
  /** how many (a positive number) */
  @ApiPropertyOptional({ example: 2 })
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

export class RemoveUseQueryDto extends ObjectTypeQueryDto {
  @ApiPropertyOptional({ description: ITERATE, enum: ['true', 'false'] })
  @IsOptional()
  @IsString(ONCE)
  @IsIn(['true', 'false'], { message: 'iterate must be true or false' })
  iterate?: string;
}
