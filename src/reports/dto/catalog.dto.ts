import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OidClass } from '../../common/oid.js';
import { RootClass } from '../../catalog/standard-classes.js';

export class CatalogPropertyDto {
  @ApiProperty({ example: 'thePriority' })
  path!: string;

  @ApiProperty({ example: 'string', enum: ['string', 'long', 'double', 'boolean', 'timestamp', 'oid'] })
  type!: string;

  @ApiProperty({ description: 'Where the value comes from', example: 'json priority' })
  source!: string;

  @ApiPropertyOptional({ example: 'priority (HIGH, MEDIUM, LOW)' })
  about?: string;
}

export class CatalogReferenceDto {
  @ApiProperty({ example: 'masterReference' })
  name!: string;

  @ApiProperty({ example: 'wt.vc.Mastered' })
  target!: string;

  @ApiProperty({ description: 'Where the target is kept', example: 'column master_id' })
  keptIn!: string;
}

export class CatalogRolesDto {
  @ApiProperty({ example: 'wt.change2.WTChangeActivity2' })
  a!: string;

  @ApiProperty({ example: RootClass.revisionControlled })
  b!: string;
}

export class CatalogClassDto {
  @ApiProperty({ example: 'wt.change2.WTChangeOrder2' })
  name!: string;

  @ApiProperty({ nullable: true, type: String, example: 'wt.change2.VersionableChangeItem' })
  parent!: string | null;

  @ApiProperty({ example: false })
  abstract!: boolean;

  @ApiProperty({
    nullable: true,
    type: String,
    description: 'iteration, master, object, link, container, user, content, usageLink, holderToContent, template',
    example: 'iteration',
  })
  storage!: string | null;

  @ApiProperty({ nullable: true, type: String, example: 'wt.change2.WTChangeOrder2Master' })
  master!: string | null;

  @ApiProperty({ example: 'Change Notice' })
  displayName!: string;

  @ApiProperty({ example: 'change orders (change notices)' })
  about!: string;

  @ApiProperty({ example: 'OR:wt.change2.WTChangeOrder2' })
  oidPrefix!: string;

  @ApiProperty({ description: 'Declared by a dataset (catalog_types)', example: false })
  userDeclared!: boolean;

  @ApiProperty({ type: [String], example: [] })
  subclasses!: string[];

  @ApiProperty({ type: [String], example: ['com.acme.UrgentChange'] })
  softTypes!: string[];

  @ApiProperty({ type: [CatalogPropertyDto] })
  properties!: CatalogPropertyDto[];

  @ApiProperty({ type: [CatalogPropertyDto], description: 'Derived properties (`object propertyName`)' })
  derived!: CatalogPropertyDto[];

  @ApiProperty({ type: [CatalogReferenceDto] })
  references!: CatalogReferenceDto[];

  @ApiProperty({ type: CatalogRolesDto, nullable: true, description: 'Link classes: role A and role B' })
  roles!: CatalogRolesDto | null;
}

export class CatalogAttributeDto {
  @ApiProperty({ example: 'firmwareVersion' })
  name!: string;

  @ApiProperty({ example: 'string' })
  type!: string;
}

export class CatalogSoftTypeDto {
  @ApiProperty({ example: 'com.acme.SoftwarePart' })
  name!: string;

  @ApiProperty({ example: OidClass.part })
  parent!: string;

  @ApiProperty({ example: OidClass.part })
  class!: string;

  @ApiProperty({ example: 'Software Part' })
  displayName!: string;

  @ApiProperty({ example: 'a part that is software loaded on hardware' })
  about!: string;

  @ApiProperty({ example: true })
  userDeclared!: boolean;

  @ApiProperty({ type: [CatalogAttributeDto] })
  attributes!: CatalogAttributeDto[];
}

export class CatalogDto {
  @ApiProperty({ type: [CatalogClassDto] })
  classes!: CatalogClassDto[];

  @ApiProperty({ type: [CatalogSoftTypeDto] })
  softTypes!: CatalogSoftTypeDto[];
}

/** One class and the soft types below it. */
export class CatalogClassDetailsDto extends CatalogClassDto {
  @ApiProperty({ type: [CatalogSoftTypeDto], description: 'The soft types of this class and below' })
  softTypeDetails!: CatalogSoftTypeDto[];
}
