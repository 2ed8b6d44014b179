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

export class TemplateReportAttributeDto {
  @ApiProperty({ description: 'reportAttributeId: the request parameter that constrains it', example: 'Number' })
  id!: string;

  @ApiProperty({ description: 'Its heading (also a request parameter name)', example: 'Document Number' })
  heading!: string;

  @ApiProperty({ description: 'A result column', example: true })
  column!: boolean;

  @ApiProperty({ description: 'An input (`parameterValue`) that conditions refer to', example: false })
  input!: boolean;

  @ApiProperty({ description: 'userCanConstrain: request parameters give it a value', example: true })
  userCanConstrain!: boolean;

  @ApiProperty({ nullable: true, type: String, example: '0000*' })
  defaultValue!: string | null;

  @ApiProperty({ description: 'A fixed value the request cannot change', nullable: true, type: String, example: null })
  constantValue!: string | null;

  @ApiProperty({ description: 'defaultValue and constantValue are macro names', example: false })
  isMacro!: boolean;
}

export class TemplateWarningDto {
  @ApiProperty({ description: 'The element the warning is about', example: '/qml/statement/query/from/table[1]' })
  path!: string;

  @ApiProperty({
    example:
      "soft type com.acme.Undeclared of wt.part.WTPart is not declared: only objects of exactly that type match (declare it in the dataset's types to add its attributes and subtypes)",
  })
  message!: string;
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

  @ApiProperty({
    description:
      'The QML layout: `statement` (qml/statement/query) or `query` (qml/query, written by Windchill 10 and later)',
    enum: ['statement', 'query'],
    example: 'statement',
  })
  layout!: 'statement' | 'query';

  @ApiProperty({ type: [TemplateParameterDto] })
  parameters!: TemplateParameterDto[];

  @ApiProperty({
    description: 'The report attributes of a template in the `query` layout (empty for the `statement` layout)',
    type: [TemplateReportAttributeDto],
  })
  reportAttributes!: TemplateReportAttributeDto[];

  @ApiProperty({ description: 'Selected items with their types', type: [ResultHeadingDto] })
  headings!: ResultHeadingDto[];

  @ApiProperty({
    description:
      'What the template names that was accepted but may not mean what was meant (an undeclared soft type …)',
    type: [TemplateWarningDto],
  })
  warnings!: TemplateWarningDto[];

  @ApiProperty({ description: 'The QML document' })
  qml!: string;
}
