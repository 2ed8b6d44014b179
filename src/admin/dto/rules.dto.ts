import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { NUMBERED_CLASSES, OidClass } from '../../catalog/oid.js';
import { NumberingRuleDto } from '../../numbers/dto/numbers-response.dto.js';
import { AFFIX, AFFIX_RULE, MAX_WIDTH } from '../admin-names.js';

const given = (_: object, v: unknown) => v !== undefined;
const MAX_NEXT = Number.MAX_SAFE_INTEGER;

export class RulesParamDto {
  /** container name (URL-encoded) */
  @ApiProperty({ example: 'Standard Parts' })
  @IsString()
  container!: string;
}

export class RuleParamsDto extends RulesParamDto {
  /** the class the rule numbers */
  @ApiProperty({ example: OidClass.document })
  @IsString()
  class_name!: string;
}

export class CreateRuleDto {
  @ApiProperty({
    description:
      'the class to number (and its soft subtypes): a versioned or plain class of the catalog in force, i.e. ' +
      `one of the standard catalog's (${NUMBERED_CLASSES.join(', ')}) or a class of storage iteration or object ` +
      'a dataset declared',
    example: OidClass.document,
  })
  @IsString({ message: 'class_name must be a string' })
  class_name!: string;

  @ApiPropertyOptional({ description: AFFIX_RULE, default: '', example: 'SD-' })
  @ValidateIf(given)
  @IsString({ message: 'prefix must be a string' })
  @Matches(AFFIX, { message: `prefix must be ${AFFIX_RULE}` })
  prefix?: string;

  @ApiPropertyOptional({ description: AFFIX_RULE, default: '', example: '' })
  @ValidateIf(given)
  @IsString({ message: 'suffix must be a string' })
  @Matches(AFFIX, { message: `suffix must be ${AFFIX_RULE}` })
  suffix?: string;

  @ApiProperty({ description: `digits of the counter, 1 to ${MAX_WIDTH}`, example: 6 })
  @IsInt({ message: 'width must be a whole number' })
  @Min(1, { message: 'width must be at least 1' })
  @Max(MAX_WIDTH, { message: `width must be at most ${MAX_WIDTH}` })
  width!: number;

  /** the first counter to hand out; below 10^width */
  @ApiPropertyOptional({ default: 1, example: 1 })
  @ValidateIf(given)
  @IsInt({ message: 'next must be a whole number' })
  @Min(1, { message: 'next must be at least 1' })
  @Max(MAX_NEXT, { message: `next must be at most ${MAX_NEXT}` })
  next?: number;
}

/** A missing field is left as it is. */
export class UpdateRuleDto {
  @ApiPropertyOptional({ description: AFFIX_RULE, example: 'SD-' })
  @ValidateIf(given)
  @IsString({ message: 'prefix must be a string' })
  @Matches(AFFIX, { message: `prefix must be ${AFFIX_RULE}` })
  prefix?: string;

  @ApiPropertyOptional({ description: AFFIX_RULE, example: '-A' })
  @ValidateIf(given)
  @IsString({ message: 'suffix must be a string' })
  @Matches(AFFIX, { message: `suffix must be ${AFFIX_RULE}` })
  suffix?: string;

  @ApiPropertyOptional({ description: `digits of the counter, 1 to ${MAX_WIDTH}`, example: 7 })
  @ValidateIf(given)
  @IsInt({ message: 'width must be a whole number' })
  @Min(1, { message: 'width must be at least 1' })
  @Max(MAX_WIDTH, { message: `width must be at most ${MAX_WIDTH}` })
  width?: number;

  /** the counter to go on from: never below the current one (numbers below it may be handed out) */
  @ApiPropertyOptional({ example: 10 })
  @ValidateIf(given)
  @IsInt({ message: 'next must be a whole number' })
  @Min(1, { message: 'next must be at least 1' })
  @Max(MAX_NEXT, { message: `next must be at most ${MAX_NEXT}` })
  next?: number;
}

export class RuleListDto {
  @ApiProperty({ example: 1 })
  count!: number;

  @ApiProperty({ example: 'Standard Parts' })
  container!: string;

  items!: NumberingRuleDto[];
}
