import { ApiProperty } from '@nestjs/swagger';
import { OidClass } from '../../common/oid.js';

export class ContainerRefDto {
  @ApiProperty({ example: 'OR:wt.pdmlink.PDMLinkProduct:1' })
  oid!: string;

  @ApiProperty({ example: 'Drive Unit' })
  name!: string;
}

export class GeneratedNumbersDto {
  @ApiProperty({ description: 'how many numbers were generated', example: 3 })
  count!: number;

  @ApiProperty({ description: 'the class name from the path', example: OidClass.document })
  class_name!: string;

  @ApiProperty({ description: 'the container whose rule was used', type: ContainerRefDto })
  container!: ContainerRefDto;

  @ApiProperty({
    description: 'the generated numbers, consecutive, never handed out before',
    example: ['0000000100', '0000000101', '0000000102'],
  })
  items!: string[];

  @ApiProperty({ description: 'time the request took, in seconds', example: 0.004 })
  _runtime!: number;
}

export class NumberingRuleDto {
  @ApiProperty({ description: 'the class the rule numbers (and its soft subtypes)', example: OidClass.part })
  class_name!: string;

  @ApiProperty({ example: 'P-' })
  prefix!: string;

  @ApiProperty({ example: '' })
  suffix!: string;

  @ApiProperty({ description: 'digits of the counter, zero-padded', example: 8 })
  width!: number;

  @ApiProperty({
    description: 'the counter the next request starts from (numbers already taken are skipped then)',
    example: 100,
  })
  next!: number;

  @ApiProperty({ description: 'next, written as a number of the rule', example: 'P-00000100' })
  next_number!: string;
}

export class NumberingRulesDto {
  @ApiProperty({ example: 1 })
  count!: number;

  @ApiProperty({ type: ContainerRefDto })
  container!: ContainerRefDto;

  @ApiProperty({ type: [NumberingRuleDto] })
  items!: NumberingRuleDto[];

  @ApiProperty({ description: 'time the request took, in seconds', example: 0.002 })
  _runtime!: number;
}
