import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsDefined, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { BUSINESS_CLASSES, OidClass } from '../../catalog/oid.js';
import { CAD_SUBTYPES } from '../../catalog/standard-classes.js';
import { STATE_NAME } from '../../config/lifecycle.js';

/** A query parameter given twice arrives as an array: refused with this message. */
export const ONCE = { message: '$property must be given at most once' };
/** For `@ValidateIf`: a field that is given is checked, null included (only absent is skipped). */
export const given = (_: object, v: unknown) => v !== undefined;
/** For `@ValidateIf`: a field that may be null (to clear it) is checked unless absent or null. */
export const notNull = (_: object, v: unknown) => v !== undefined && v !== null;

/** `number: "generate"` takes the next number of the container's numbering rule. */
export const GENERATE = 'generate';

/** Numbers: printable, trimmed, 1 to 200 characters, not an OID (`OR:…` names iterations). */
export const NUMBER = /^(?!OR:)(?=\S)[^\p{Cc}\p{Zl}\p{Zp}]{1,200}(?<=\S)$/u;
const NUMBER_RULE = '1 to 200 printable characters without leading or trailing space, not starting with OR:';
/** Names and titles: printable, trimmed, 1 to 1000 characters. */
export const NAME = /^(?=\S)[^\p{Cc}\p{Zl}\p{Zp}]{1,1000}(?<=\S)$/u;
export const NAME_RULE = '1 to 1000 printable characters without leading or trailing space';
export const DESCRIPTION_MAX = 10_000;
/** Free text: anything but NUL, which PostgreSQL does not store in text. */
const NO_NUL = /^[^\u0000]*$/;
export const NOTE_MAX = 4000;

const ATTRIBUTES = {
  type: 'object',
  additionalProperties: true,
  description:
    'custom attributes: name → string, number or boolean; typed by the catalog where it declares the name ' +
    '(the soft type’s attributes, a part’s view or source)',
} as const;

/** Plain objects: the catalog's properties kept in JSON, and the soft type's attributes. */
export const PROPS = {
  type: 'object',
  additionalProperties: true,
  description:
    'plain objects only: the properties the catalog declares for the class and keeps in JSON (by property ' +
    'name, e.g. description, startTime), and the attributes of its soft type; each checked against its declared ' +
    'type (null: left out or removed)',
} as const;

/** Plain objects: references the catalog keeps in JSON, each naming another object. */
export const REFERENCES = {
  type: 'object',
  additionalProperties: { type: 'string', nullable: true },
  description:
    "plain objects only: references the class keeps in JSON (e.g. a work item's source, ownership.owner, " +
    'primaryBusinessObject), each the OID, number or name of an object of the target class (null removes it)',
} as const;

export class ObjectTypeQueryDto {
  @ApiPropertyOptional({
    description:
      `class of the object a number names (${BUSINESS_CLASSES.join(', ')}, another versioned class of the ` +
      'catalog such as wt.change2.WTChangeOrder2, or a plain class); needed only when several classes carry the number',
  })
  @IsOptional()
  @IsString(ONCE)
  type?: string;
}

export class ReadObjectQueryDto extends ObjectTypeQueryDto {
  /** a version (its latest iteration, e.g. A) or version.iteration (A.1); default: the latest iteration */
  @IsOptional()
  @IsString(ONCE)
  version?: string;
}

export class DeleteObjectQueryDto extends ObjectTypeQueryDto {
  /**
   * true: also remove the usage links of other objects that use it, the catalog links naming it and the references
   * other objects' JSON keeps to it (refused with 409 otherwise)
   */
  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsString(ONCE)
  @IsIn(['true', 'false'], { message: 'force must be true or false' })
  force?: string;
}

export class CreateObjectDto {
  @ApiProperty({
    description:
      `${BUSINESS_CLASSES.join(', ')}, another versioned class of the catalog (wt.change2.WTChangeOrder2 …, or ` +
      'one of storage iteration a dataset declared), a plain class (wt.workflow.engine.WfProcess …), or a soft ' +
      'type of one of them the catalog knows or users declared (com.acme.SoftwarePart, also written ' +
      'WCTYPE|wt.part.WTPart|com.acme.SoftwarePart)',
    example: OidClass.document,
  })
  @IsString({ message: 'type must be a string' })
  type!: string;

  /** CAD documents only, and required there */
  @ApiPropertyOptional({ enum: [...CAD_SUBTYPES] })
  @ValidateIf(given)
  @IsString({ message: 'subtype must be a string' })
  subtype?: string;

  /**
   * name of the container the object is created in; required for versioned objects (documents, parts, change objects
   * …); a plain object without one (an organisation, a view …) is read by everyone and made by administrators only
   */
  @ApiPropertyOptional({ example: 'Drive Unit' })
  @ValidateIf(given)
  @IsString({ message: 'container must be a string' })
  container?: string;

  @ApiPropertyOptional({
    description:
      `the number (${NUMBER_RULE}; unique per class), or "${GENERATE}": the next number of the container's numbering ` +
      'rule for the class; required for versioned objects, optional for plain ones',
    example: GENERATE,
  })
  @ValidateIf(given)
  @IsString({ message: 'number must be a string' })
  @Matches(NUMBER, { message: `number must be ${NUMBER_RULE}` })
  number?: string;

  @ApiProperty({ description: NAME_RULE, example: 'Gearbox specification' })
  @IsString({ message: 'name must be a string' })
  @Matches(NAME, { message: `name must be ${NAME_RULE}` })
  name!: string;

  @ApiPropertyOptional({ description: `documents only; ${NAME_RULE}`, example: 'Gearbox specification, issue 1' })
  @ValidateIf(given)
  @IsString({ message: 'title must be a string' })
  @Matches(NAME, { message: `title must be ${NAME_RULE}` })
  title?: string;

  @ApiPropertyOptional({ description: `up to ${DESCRIPTION_MAX} characters`, example: 'Requirements of the gearbox' })
  @ValidateIf(given)
  @IsString({ message: 'description must be a string' })
  @MaxLength(DESCRIPTION_MAX, { message: `description must be at most ${DESCRIPTION_MAX} characters` })
  @Matches(NO_NUL, { message: 'description must not contain NUL characters' })
  description?: string;

  @ApiPropertyOptional({ ...ATTRIBUTES, example: { language: 'en', pages: 12 } })
  @ValidateIf(given)
  @IsObject({ message: 'attributes must be an object of name → value' })
  attributes?: Record<string, unknown>;

  /** check-in comment of the first iteration */
  @ApiPropertyOptional({ example: 'first issue' })
  @ValidateIf(given)
  @IsString({ message: 'note must be a string' })
  @MaxLength(NOTE_MAX, { message: `note must be at most ${NOTE_MAX} characters` })
  @Matches(NO_NUL, { message: 'note must not contain NUL characters' })
  note?: string;

  /**
   * plain objects only: the state (a state name such as OPEN_RUNNING); versioned objects start in the lifecycle's first
   * state
   */
  @ValidateIf(given)
  @IsString({ message: 'state must be a string' })
  @Matches(STATE_NAME, { message: 'state must be a state name (A-Z, 0-9, _, starting with a letter)' })
  state?: string;

  @ApiPropertyOptional(PROPS)
  @ValidateIf(given)
  @IsObject({ message: 'props must be an object of property → value' })
  props?: Record<string, unknown>;

  @ApiPropertyOptional(REFERENCES)
  @ValidateIf(given)
  @IsObject({ message: 'references must be an object of reference → OID, number or name' })
  references?: Record<string, unknown>;
}

/** What a new iteration changes; a field not given is carried over as it is. */
export class NewIterationDto {
  @ApiPropertyOptional({ description: `a new name for the object (${NAME_RULE})`, example: 'Maintenance manual' })
  @ValidateIf(given)
  @IsString({ message: 'name must be a string' })
  @Matches(NAME, { message: `name must be ${NAME_RULE}` })
  name?: string;

  /** documents only; null removes it */
  @ValidateIf(notNull)
  @IsString({ message: 'title must be a string or null' })
  @Matches(NAME, { message: `title must be ${NAME_RULE}` })
  title?: string | null;

  /** null removes it */
  @ValidateIf(notNull)
  @IsString({ message: 'description must be a string or null' })
  @MaxLength(DESCRIPTION_MAX, { message: `description must be at most ${DESCRIPTION_MAX} characters` })
  @Matches(NO_NUL, { message: 'description must not contain NUL characters' })
  description?: string | null;

  @ApiPropertyOptional({
    ...ATTRIBUTES,
    description: `${ATTRIBUTES.description}; null removes a name, names not given are kept`,
    example: { pages: 124, language: null },
  })
  @ValidateIf(given)
  @IsObject({ message: 'attributes must be an object of name → value' })
  attributes?: Record<string, unknown>;

  /** check-in comment of the new iteration */
  @ApiPropertyOptional({ example: 'pages counted again' })
  @ValidateIf(given)
  @IsString({ message: 'note must be a string' })
  @MaxLength(NOTE_MAX, { message: `note must be at most ${NOTE_MAX} characters` })
  @Matches(NO_NUL, { message: 'note must not contain NUL characters' })
  note?: string;
}

export class NewRevisionDto extends PickType(NewIterationDto, ['note'] as const) {
  /** check-in comment of the new version */
  @ApiPropertyOptional({ example: 'revised for the new housing' })
  declare note?: string;
}

/** The path of a check-out, a check-in or an undo of one: the object they name. */
export class CheckoutRefParamDto {
  /** OID of the latest iteration, or the number of a business object (`type` picks the class when several carry it) */
  @ApiProperty({ example: '0000000003' })
  @IsString()
  ref!: string;
}

export class CheckinDto {
  /** check-in comment: the note of the iteration the check-in makes */
  @ApiPropertyOptional({ example: 'hole pattern moved 2 mm' })
  @ValidateIf(given)
  @IsString({ message: 'message must be a string' })
  @MaxLength(NOTE_MAX, { message: `message must be at most ${NOTE_MAX} characters` })
  @Matches(NO_NUL, { message: 'message must not contain NUL characters' })
  message?: string;
}

export class StateChangeDto {
  /** the state to go to (OBJECTS_LIFECYCLE says which may follow which) */
  @ApiProperty({ example: 'UNDERREVIEW' })
  @IsDefined({ message: 'state must be given' })
  @IsString({ message: 'state must be a string' })
  @Matches(STATE_NAME, { message: 'state must be a state name such as RELEASED' })
  state!: string;
}

export class UseParamsDto {
  /** OID of an iteration or number of a business object (its latest iteration) */
  @IsString()
  ref!: string;

  /**
   * the link: its id, its OID, or the used object's number when the object uses it once (ids are those of the latest
   * iteration: a new iteration copies links under new ids)
   */
  @IsString()
  link!: string;
}
