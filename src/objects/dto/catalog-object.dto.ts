import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { PageDto, PageQueryDto } from '../../common/paging.dto.js';
import { STATE_NAME } from '../../config/lifecycle.js';
import { given, NAME, NAME_RULE, notNull, ONCE, PROPS, REFERENCES } from './object-request.dto.js';

export class ContainerOrNoneDto {
  @ApiProperty({ example: 'OR:wt.pdmlink.PDMLinkProduct:1' })
  oid!: string;

  @ApiProperty({ example: 'Drive Unit' })
  name!: string;
}

/** An object of a plain catalog class (storage `object`): a view, a workflow process, an organisation … */
export class PlainObjectDto {
  @ApiProperty({ example: 'OR:wt.workflow.engine.WfProcess:3' })
  oid!: string;

  /** the soft type when it has one, else the class */
  @ApiProperty({ example: 'wt.workflow.engine.WfProcess' })
  type!: string;

  @ApiProperty({ example: 'wt.workflow.engine.WfProcess' })
  class!: string;

  @ApiProperty({ type: String, example: null })
  softType!: string | null;

  @ApiProperty({ type: String, example: 'WF-0001' })
  number!: string | null;

  @ApiProperty({ type: String, example: 'Release review' })
  name!: string | null;

  @ApiProperty({ type: String, example: 'OPEN_RUNNING' })
  state!: string | null;

  /** null: kept outside containers, read by every signed-in user */
  container!: ContainerOrNoneDto | null;

  /** declared properties kept in JSON (by property name) and soft-type attributes */
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { priority: 2, description: 'review before release' },
  })
  props!: Record<string, unknown>;

  /** references kept in JSON, as OIDs */
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { primaryBusinessObject: 'OR:wt.change2.WTChangeOrder2:7' },
  })
  references!: Record<string, unknown>;

  @ApiProperty({ type: String, example: 'alice' })
  createdBy!: string | null;

  @ApiProperty({ example: '2026-11-25T09:30:00.000Z' })
  createdAt!: Date;

  @ApiProperty({ type: String, example: 'alice' })
  modifiedBy!: string | null;

  @ApiProperty({ example: '2026-11-25T09:30:00.000Z' })
  modifiedAt!: Date;
}

/** What a change of a plain object sets; a field not given is left as it is. */
export class UpdatePlainObjectDto {
  @ApiPropertyOptional({ description: NAME_RULE, example: 'Release review (second round)' })
  @ValidateIf(given)
  @IsString({ message: 'name must be a string' })
  @Matches(NAME, { message: `name must be ${NAME_RULE}` })
  name?: string;

  /** a state name (null clears it) */
  @ValidateIf(notNull)
  @IsString({ message: 'state must be a string or null' })
  @Matches(STATE_NAME, { message: 'state must be a state name (A-Z, 0-9, _, starting with a letter)' })
  state?: string | null;

  @ApiPropertyOptional({ ...PROPS, description: `${PROPS.description}; merged: names not given are kept` })
  @ValidateIf(given)
  @IsObject({ message: 'props must be an object of property → value' })
  props?: Record<string, unknown>;

  @ApiPropertyOptional(REFERENCES)
  @ValidateIf(given)
  @IsObject({ message: 'references must be an object of reference → OID, number or name' })
  references?: Record<string, unknown>;
}

export class DeletedPlainObjectDto extends PickType(PlainObjectDto, ['oid', 'class', 'number'] as const) {
  /** catalog links naming it, removed with it (force=true) */
  @ApiProperty({ example: 0 })
  links!: number;

  /**
   * other plain objects whose JSON references named it (an activity’s parentProcessRef …), the references removed
   * (force=true)
   */
  @ApiProperty({ example: 0 })
  references!: number;
}

/** One end of a catalog link. */
export class LinkEndDto {
  @ApiProperty({ type: String, example: 'OR:wt.change2.WTChangeOrder2:11' })
  oid!: string | null;

  @ApiProperty({ type: String, example: 'CN-0001' })
  number!: string | null;

  @ApiProperty({ type: String, example: 'Rework housing and manual' })
  name!: string | null;

  /** in a container the caller may not read */
  @ApiProperty({ example: true })
  restricted?: true;
}

/** A link of a catalog link class (table `links`). */
export class CatalogLinkDto {
  @ApiProperty({ example: 14 })
  id!: number;

  @ApiProperty({ example: 'OR:wt.change2.IncludedIn2:14' })
  oid!: string;

  @ApiProperty({ example: 'wt.change2.IncludedIn2' })
  class!: string;

  @ApiProperty({ type: String, example: null })
  softType!: string | null;

  /** role A */
  a!: LinkEndDto;

  /** role B */
  b!: LinkEndDto;

  container!: ContainerOrNoneDto | null;

  @ApiProperty({ type: 'object', additionalProperties: true, example: {} })
  props!: Record<string, unknown>;

  @ApiProperty({ example: '2026-11-25T09:30:00.000Z' })
  createdAt!: Date;
}

/** A page of an object's catalog links, paged as the administration lists are. */
export class CatalogLinkListDto extends PageDto {
  /** the object (the iteration a versioned one was named by, or its latest) */
  @ApiProperty({ example: 'OR:wt.change2.WTChangeActivity2:12' })
  object!: string;

  /** links naming the object in role A or B that the caller may read, oldest first */
  items!: CatalogLinkDto[];
}

export class LinkListQueryDto extends PageQueryDto {
  /** the class of the object a number names: needed for plain classes, and when several classes carry it */
  @IsOptional()
  @IsString(ONCE)
  type?: string;
}

export class CreateLinkDto {
  /** a link class of the catalog (roles A and B, storage link) */
  @ApiProperty({ example: 'wt.part.WTPartDescribeLink' })
  @IsString({ message: 'class must be a string' })
  class!: string;

  /** role A: an OID, or a number (a name for users and unnumbered objects) */
  @ApiProperty({ example: 'P-00000001' })
  @IsString({ message: 'a must be a string' })
  a!: string;

  /** role B, named as role A */
  @ApiProperty({ example: '0000000003' })
  @IsString({ message: 'b must be a string' })
  b!: string;

  /** a soft type of the link class */
  @ValidateIf(given)
  @IsString({ message: 'softType must be a string' })
  softType?: string;

  @ApiPropertyOptional({ ...PROPS, description: "the link's properties kept in JSON (e.g. description)" })
  @ValidateIf(given)
  @IsObject({ message: 'props must be an object of property → value' })
  props?: Record<string, unknown>;
}

export class LinkParamDto {
  /** the link: its id or its OID */
  @ApiProperty({ example: '1' })
  @IsString()
  link!: string;
}
