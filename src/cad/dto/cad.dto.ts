import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsDefined,
  IsObject,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';

const ONCE = { message: '$property must be given at most once' };
const given = (_: object, v: unknown) => v !== undefined;
const MAX_LINE = 2 ** 31 - 1;
export const MESSAGE_MAX = 4000;

// Values are JSON scalars (null removes); the service checks them, naming the attribute.
const ATTRIBUTES_SCHEMA = { type: 'object', additionalProperties: true } as const;

export class CadRefParamDto {
  /**
   * OID of a CAD document iteration (OR:wt.epm.EPMDocument:<id>), or a number: the latest iteration of the CAD document
   * with that number
   */
  @ApiProperty({ example: '0000500001' })
  @IsString()
  oid_or_number!: string;
}

export class CadLinkParamsDto extends CadRefParamDto {
  /**
   * a link of the document's used relation: its id (stable for the current iteration only: a new iteration copies the
   * links under new ids), or the member's number when the document uses that member once
   */
  @ApiProperty({ example: '0000500002' })
  @IsString()
  link!: string;
}

export class ReadAttributesQueryDto {
  /** yes: also the links of the used relation */
  @ApiPropertyOptional({ enum: ['yes', 'no'], example: 'yes' })
  @IsOptional()
  @IsString(ONCE)
  @IsIn(['yes', 'no'], { message: 'links must be yes or no' })
  links?: string;
}

export class MergeAttributesBodyDto {
  @ApiProperty({
    description: 'attributes to set (string, number or boolean) or, with null, to remove; others are kept',
    ...ATTRIBUTES_SCHEMA,
    example: { material: 'steel', mass_kg: 12.5, drawingChecked: null },
  })
  @IsDefined({ message: 'attributes must be given' })
  @IsObject({ message: 'attributes must be an object of name → value' })
  attributes!: Record<string, unknown>;

  /** true: make a new iteration and change that one */
  @ApiPropertyOptional({ default: false, example: false })
  @ValidateIf(given)
  @IsBoolean({ message: 'iterate must be true or false' })
  iterate?: boolean;

  /** check-in comment, kept as the note of the changed iteration */
  @ApiPropertyOptional({ example: 'material set' })
  @ValidateIf(given)
  @IsString({ message: 'message must be a string' })
  @MaxLength(MESSAGE_MAX, { message: `message must be at most ${MESSAGE_MAX} characters` })
  message?: string;
}

export class LinkChangeBodyDto {
  /** line number of the link (unique within the assembly), or null to clear it */
  @ApiPropertyOptional({ example: 10 })
  @IsOptional()
  @IsInt({ message: 'lineNumber must be a whole number or null' })
  @Min(0, { message: 'lineNumber must be at least 0' })
  @Max(MAX_LINE, { message: `lineNumber must be at most ${MAX_LINE}` })
  lineNumber?: number | null;

  /** reference designator, or null to clear it */
  @ApiPropertyOptional({ example: 'M1' })
  @IsOptional()
  @IsString({ message: 'referenceNumber must be a string or null' })
  @Matches(/^[^\p{Cc}]{1,100}$/u, { message: 'referenceNumber must be 1 to 100 characters without control characters' })
  referenceNumber?: string | null;

  @ApiPropertyOptional({
    description: "attributes to merge into the link's (null removes one)",
    ...ATTRIBUTES_SCHEMA,
    example: { torque_Nm: 40 },
  })
  @ValidateIf(given)
  @IsObject({ message: 'attributes must be an object of name → value' })
  attributes?: Record<string, unknown>;
}

export class NumberUsedQueryDto {
  /** missing: only links without a line number; all: renumber every link */
  @ApiPropertyOptional({ default: 'missing' })
  @IsOptional()
  @IsString(ONCE)
  @IsIn(['missing', 'all'], { message: 'mode must be missing or all' })
  mode?: 'missing' | 'all';

  /** the first line number */
  @ApiPropertyOptional({ type: 'integer', default: 10, minimum: 0 })
  @IsOptional()
  @IsString(ONCE)
  @Matches(/^(0|[1-9][0-9]{0,8})$/, { message: 'start must be a whole number from 0 to 999999999' })
  start?: string;

  /** the distance between line numbers */
  @ApiPropertyOptional({ type: 'integer', default: 10, minimum: 1 })
  @IsOptional()
  @IsString(ONCE)
  @Matches(/^[1-9][0-9]{0,5}$/, { message: 'step must be a whole number from 1 to 999999' })
  step?: string;
}

export class CadMemberDto {
  /** the member's latest iteration; null when restricted */
  @ApiProperty({ example: 'OR:wt.epm.EPMDocument:14', type: String })
  oid!: string | null;

  /** null when restricted */
  @ApiProperty({ example: '0000500002', type: String })
  number!: string | null;

  /** the member is in a container the caller may not read: shown without its OID and number */
  @ApiPropertyOptional({ example: true })
  restricted?: true;
}

export class CadLinkDto {
  /** link id, stable for the current iteration only */
  @ApiProperty({ example: 3 })
  id!: number;

  /**
   * the member's latest iteration and number; `{ oid: null, number: null, restricted: true }` for a member in a
   * container the caller may not read
   */
  member!: CadMemberDto;

  @ApiProperty({ example: 1 })
  quantity!: number;

  @ApiProperty({ example: 'ea' })
  unit!: string;

  @ApiProperty({ example: 10, type: Number })
  lineNumber!: number | null;

  @ApiProperty({ example: 'M1', type: String })
  referenceNumber!: string | null;

  @ApiProperty({ example: { torque_Nm: 40 }, type: 'object', additionalProperties: true })
  attributes!: Record<string, unknown>;
}

export class CadAttributesDto {
  /** the iteration the attributes belong to */
  @ApiProperty({ example: 'OR:wt.epm.EPMDocument:13' })
  oid!: string;

  @ApiProperty({ example: '0000500001' })
  number!: string;

  @ApiProperty({ example: 'CADASSEMBLY', type: String })
  subtype!: string | null;

  /** version.iteration */
  @ApiProperty({ example: 'A.1' })
  version!: string;

  @ApiProperty({ example: { material: 'steel' }, type: 'object', additionalProperties: true })
  attributes!: Record<string, unknown>;

  /** with links=yes: the links of the used relation */
  links?: CadLinkDto[];

  /** with links=yes: true when more than 10000 links exist and only those are listed */
  truncated?: boolean;
}

export class NumberUsedLinksDto extends CadAttributesDto {
  @ApiProperty({ example: 'missing' })
  mode!: 'missing' | 'all';

  @ApiProperty({ example: 10 })
  start!: number;

  @ApiProperty({ example: 10 })
  step!: number;

  /** how many links got a line number */
  @ApiProperty({ example: 2 })
  numbered!: number;
}
