import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { BUSINESS_CLASSES, OidClass } from '../../catalog/oid.js';
import { RELATIONS, type Relation } from '../../objects/structure/related-objects.service.js';

// A repeated URL parameter arrives as an array: that is the only way IsString fails on the query.
const ONCE = { message: '$property must be given at most once' };

/** Longest check-in message, in characters. */
export const MESSAGE_MAX = 4000;

export class FileHolderParamsDto {
  /**
   * OID of an iteration (OR:wt.doc.WTDocument:<id>, OR:wt.epm.EPMDocument:<id>, OR:wt.part.WTPart:<id>), or a number:
   * the latest iteration of the object of class `type` (default wt.doc.WTDocument) with that number
   */
  @ApiProperty({ example: '0000000001' })
  @IsString()
  oid_or_number!: string;
}

export class FileParamsDto extends FileHolderParamsDto {
  /** file name, URL-encoded (compared in Unicode NFC) */
  @ApiProperty({ example: 'spec.txt' })
  @IsString()
  filename!: string;
}

export class HolderTypeQueryDto {
  /** class of the object when <oid_or_number> is a number; with an OID it must match the OID */
  @ApiPropertyOptional({ enum: BUSINESS_CLASSES, default: OidClass.document })
  @IsOptional()
  @IsString(ONCE)
  @IsIn(BUSINESS_CLASSES, { message: `type must be one of ${BUSINESS_CLASSES.join(', ')}` })
  type?: string;
}

export const LIST_FORMATS = ['json', 'zip'];

export class ListFilesQueryDto extends HolderTypeQueryDto {
  /**
   * content role to list (e.g. PRIMARY, SECONDARY, as defined in content_roles), or `all`; default SECONDARY for a
   * list, all for a ZIP
   */
  @ApiPropertyOptional({ example: 'all' })
  @IsOptional()
  @IsString(ONCE)
  role?: string;

  /** json: the list (default); zip: the files themselves in one ZIP archive, with a manifest.json */
  @ApiPropertyOptional({ enum: LIST_FORMATS, default: 'json' })
  @IsOptional()
  @IsString(ONCE)
  @IsIn(LIST_FORMATS, { message: `format must be one of ${LIST_FORMATS.join(', ')}` })
  format?: string;
}

/** Most levels of usage links a collection follows. */
export const COLLECT_MAX_LEVELS = 100;

/** The body of POST /files/collect. */
export class CollectFilesBodyDto {
  /**
   * the object to start from: OID (or VR: reference) or number of a versioned object: an assembly (a part), a CAD
   * document, a document, a change order or change activity
   */
  @ApiProperty({ example: '0000500001' })
  @IsString()
  @MaxLength(200)
  root!: string;

  /** class of the root when it is a number carried by several classes */
  @ApiPropertyOptional({ example: 'wt.epm.EPMDocument' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  type?: string;

  /**
   * what to follow from the root: structure (part usage links), members (CAD members), documents (documents describing
   * or referenced by a part), drawings (CAD documents built from a part), affected (the affected objects of a change
   * order or activity, followed like the root)
   */
  @ApiPropertyOptional({ enum: RELATIONS, isArray: true, default: ['structure'], example: ['members', 'drawings'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(RELATIONS.length * 2)
  @IsIn(RELATIONS, { each: true, message: `follow: each must be one of ${RELATIONS.join(', ')}` })
  follow?: Relation[];

  /** levels of usage links (structure, members) to follow below the root and below each affected object */
  @ApiPropertyOptional({ default: 1, minimum: 1, maximum: COLLECT_MAX_LEVELS, example: 2 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(COLLECT_MAX_LEVELS)
  levels?: number;

  /** content role of the files to collect (e.g. PRIMARY); default all */
  @ApiPropertyOptional({ example: 'PRIMARY' })
  @IsOptional()
  @IsString()
  role?: string;
}

const BOOLEAN_TEXT = ['true', 'false'];

export class DeleteFileQueryDto extends HolderTypeQueryDto {
  /** true: make a new iteration of the object first and change that one */
  @ApiPropertyOptional({ enum: BOOLEAN_TEXT, default: 'false' })
  @IsOptional()
  @IsString(ONCE)
  @IsIn(BOOLEAN_TEXT, { message: 'iterate must be true or false' })
  iterate?: string;

  @ApiPropertyOptional({ description: `check-in message (at most ${MESSAGE_MAX} characters)` })
  @IsOptional()
  @IsString(ONCE)
  @MaxLength(MESSAGE_MAX)
  message?: string;
}

export class WriteFileQueryDto extends DeleteFileQueryDto {
  /**
   * content role; default SECONDARY for a new file, the current role for an existing one. A value in the JSON body wins
   * over this parameter.
   */
  @ApiPropertyOptional({ example: 'PRIMARY' })
  @IsOptional()
  @IsString(ONCE)
  role?: string;

  /** media type to store; default the current one, or a guess from the file name for a new file */
  @ApiPropertyOptional({ example: 'text/plain' })
  @IsOptional()
  @IsString(ONCE)
  mimetype?: string;
}

/** The JSON body of POST /files/<oid_or_number>/<filename>. Its fields win over URL parameters. */
export class UploadFileBodyDto {
  /** the file content, standard base64 with padding, no line breaks (an empty string is an empty file) */
  @ApiProperty({ example: 'SGVsbG8sIHdvcmxkIQo=' })
  @IsString()
  data!: string;

  @ApiPropertyOptional({
    description: `check-in message (at most ${MESSAGE_MAX} characters)`,
    default: "update file '<filename>'",
  })
  @IsOptional()
  @IsString()
  @MaxLength(MESSAGE_MAX)
  message?: string;

  /** content role; default SECONDARY for a new file, the current role for an existing one */
  @ApiPropertyOptional({ example: 'SECONDARY' })
  @IsOptional()
  @IsString()
  role?: string;

  /** true: make a new iteration first and store the file there */
  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  iterate?: boolean;

  /** media type to store; default the current one, or a guess from the file name for a new file */
  @ApiPropertyOptional({ example: 'text/plain' })
  @IsOptional()
  @IsString()
  mimetype?: string;
}
