import { ApiProperty } from '@nestjs/swagger';
import { ResultHeadingDto } from './query-result.dto.js';

export class TemplateParameterDto {
  @ApiProperty({ example: 'number' })
  name!: string;

  /** Declared type */
  @ApiProperty({ example: 'java.lang.String' })
  type!: string;

  /** Default value (or macro name), null when none */
  @ApiProperty({ example: '*', type: String })
  default!: string | null;

  /** Whether the default is a macro (CURRENT_USER_NAME …) */
  @ApiProperty({ example: false })
  isMacro!: boolean;
}

export class TemplateReportAttributeDto {
  /** reportAttributeId: the request parameter that constrains it */
  @ApiProperty({ example: 'Number' })
  id!: string;

  /** Its heading (also a request parameter name) */
  @ApiProperty({ example: 'Document Number' })
  heading!: string;

  /** A result column */
  @ApiProperty({ example: true })
  column!: boolean;

  /** An input (`parameterValue`) that conditions refer to */
  @ApiProperty({ example: false })
  input!: boolean;

  /** userCanConstrain: request parameters give it a value */
  @ApiProperty({ example: true })
  userCanConstrain!: boolean;

  @ApiProperty({ type: String, example: '0000*' })
  defaultValue!: string | null;

  /** A fixed value the request cannot change */
  @ApiProperty({ type: String, example: null })
  constantValue!: string | null;

  /** defaultValue and constantValue are macro names */
  @ApiProperty({ example: false })
  isMacro!: boolean;
}

export class TemplateWarningDto {
  /** The element the warning is about */
  @ApiProperty({ example: '/qml/statement/query/from/table[1]' })
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

  @ApiProperty({ type: String, example: 'Latest iterations of documents whose number matches the parameter' })
  description!: string | null;

  /** Container name */
  @ApiProperty({ example: 'Drive Unit' })
  container!: string;

  @ApiProperty({ example: '2026-03-02T10:00:00.000Z' })
  created!: string;

  @ApiProperty({ example: '2026-03-02T10:00:00.000Z' })
  modified!: string;

  /** The QML layout: `statement` (qml/statement/query) or `query` (qml/query, written by Windchill 10 and later) */
  @ApiProperty({ example: 'statement' })
  layout!: 'statement' | 'query';

  parameters!: TemplateParameterDto[];

  /** The report attributes of a template in the `query` layout (empty for the `statement` layout) */
  reportAttributes!: TemplateReportAttributeDto[];

  /** Selected items with their types */
  headings!: ResultHeadingDto[];

  /** What the template names that was accepted but may not mean what was meant (an undeclared soft type …) */
  warnings!: TemplateWarningDto[];

  /** The QML document */
  qml!: string;
}
