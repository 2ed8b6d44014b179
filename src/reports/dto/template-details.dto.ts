import { ApiProperty } from '@nestjs/swagger';
import { ResultHeadingDto } from './query-result.dto.js';

export class TemplateParameterDto {
  @ApiProperty({ example: 'number' })
  name!: string;

  @ApiProperty({ description: 'Declared type', example: 'java.lang.String' })
  type!: string;

  @ApiProperty({
    description: 'Default value (or macro name), null when none',
    example: '*',
    nullable: true,
    type: String,
  })
  default!: string | null;

  @ApiProperty({ description: 'Whether the default is a macro (CURRENT_USER_NAME …)', example: false })
  isMacro!: boolean;
}

export class TemplateDetailsDto {
  @ApiProperty({ example: 'OR:wt.query.template.ReportTemplate:1' })
  oid!: string;

  @ApiProperty({ example: 'Documents by number' })
  name!: string;

  @ApiProperty({
    nullable: true,
    type: String,
    example: 'Latest iterations of documents whose number matches the parameter',
  })
  description!: string | null;

  @ApiProperty({ description: 'Container name', example: 'Drive Unit' })
  container!: string;

  @ApiProperty({ example: '2026-03-02T10:00:00.000Z' })
  created!: string;

  @ApiProperty({ example: '2026-03-02T10:00:00.000Z' })
  modified!: string;

  @ApiProperty({ type: [TemplateParameterDto] })
  parameters!: TemplateParameterDto[];

  @ApiProperty({ description: 'Selected items with their types', type: [ResultHeadingDto] })
  headings!: ResultHeadingDto[];

  @ApiProperty({ description: 'The QML document' })
  qml!: string;
}
