import { ApiProperty } from '@nestjs/swagger';
import { OidClass } from '../../catalog/oid.js';
import { ContainerRefDto } from '../../common/container-ref.dto.js';

export class GeneratedNumbersDto {
  /** how many numbers were generated */
  @ApiProperty({ example: 3 })
  count!: number;

  /** the class name from the path */
  @ApiProperty({ example: OidClass.document })
  class_name!: string;

  /** the container whose rule was used */
  container!: ContainerRefDto;

  /** the generated numbers, consecutive, never handed out before */
  @ApiProperty({ example: ['0000000100', '0000000101', '0000000102'] })
  items!: string[];

  /** time the request took, in seconds */
  @ApiProperty({ example: 0.004 })
  _runtime!: number;
}

export class NumberingRuleDto {
  /** the class the rule numbers (and its soft subtypes) */
  @ApiProperty({ example: OidClass.part })
  class_name!: string;

  @ApiProperty({ example: 'P-' })
  prefix!: string;

  @ApiProperty({ example: '' })
  suffix!: string;

  /** digits of the counter, zero-padded */
  @ApiProperty({ example: 8 })
  width!: number;

  /** the counter the next request starts from (numbers already taken are skipped then) */
  @ApiProperty({ example: 100 })
  next!: number;

  /** next, written as a number of the rule */
  @ApiProperty({ example: 'P-00000100' })
  next_number!: string;
}

export class NumberingRulesDto {
  @ApiProperty({ example: 1 })
  count!: number;

  container!: ContainerRefDto;

  items!: NumberingRuleDto[];

  /** time the request took, in seconds */
  @ApiProperty({ example: 0.002 })
  _runtime!: number;
}
