import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OidClass } from '../oid.js';
import { RootClass } from '../standard-classes.js';

export class CatalogPropertyDto {
  @ApiProperty({ example: 'thePriority' })
  path!: string;

  @ApiProperty({ example: 'string', enum: ['string', 'long', 'double', 'boolean', 'timestamp', 'oid'] })
  type!: string;

  /** Where the value comes from */
  @ApiProperty({ example: 'json priority' })
  source!: string;

  @ApiPropertyOptional({ example: 'priority (HIGH, MEDIUM, LOW)' })
  about?: string;
}

export class CatalogReferenceDto {
  @ApiProperty({ example: 'masterReference' })
  name!: string;

  @ApiProperty({ example: 'wt.vc.Mastered' })
  target!: string;

  /** Where the target is kept */
  @ApiProperty({ example: 'column master_id' })
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

  @ApiProperty({ type: String, example: 'wt.change2.VersionableChangeItem' })
  parent!: string | null;

  @ApiProperty({ example: false })
  abstract!: boolean;

  /** An interface: implemented by classes of any storage (its `subclasses`), matching each of them */
  @ApiProperty({ example: false })
  interface!: boolean;

  /** The interfaces it implements (its own and its parents'); of an interface: those it extends */
  @ApiProperty({ type: [String], example: ['wt.lifecycle.LifeCycleManaged', 'wt.inf.container.WTContained'] })
  interfaces!: string[];

  /** iteration, master, object, link, container, user, content, usageLink, holderToContent, masterIteration, template */
  @ApiProperty({ type: String, example: 'iteration' })
  storage!: string | null;

  @ApiProperty({ type: String, example: 'wt.change2.WTChangeOrder2Master' })
  master!: string | null;

  @ApiProperty({ example: 'Change Notice' })
  displayName!: string;

  @ApiProperty({ example: 'change orders (change notices)' })
  about!: string;

  @ApiProperty({ example: 'OR:wt.change2.WTChangeOrder2' })
  oidPrefix!: string;

  /** Declared by a dataset (catalog_types) */
  @ApiProperty({ example: false })
  userDeclared!: boolean;

  @ApiProperty({ type: [String], example: [] })
  subclasses!: string[];

  @ApiProperty({ type: [String], example: ['com.acme.UrgentChange'] })
  softTypes!: string[];

  properties!: CatalogPropertyDto[];

  /** Derived properties (`object propertyName`) */
  derived!: CatalogPropertyDto[];

  references!: CatalogReferenceDto[];

  /** Link classes: role A and role B */
  roles!: CatalogRolesDto | null;
}

export class CatalogAttributeDto {
  @ApiProperty({ example: 'firmwareVersion' })
  name!: string;

  @ApiProperty({ example: 'string' })
  type!: string;

  /** The typeInfo column Windchill 10 and later keep this local attribute in (`typeInfo<Class>.ptc_str_1`) */
  @ApiProperty({ required: false, example: 'ptc_str_1' })
  typeInfoColumn?: string;

  /** For an attribute in a `ptc_ref_<n>` column: the class of the objects whose id it holds */
  @ApiProperty({ required: false, example: 'com.ptc.windchill.suma.supplier.Manufacturer' })
  target?: string;
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

  attributes!: CatalogAttributeDto[];
}

export class CatalogDto {
  classes!: CatalogClassDto[];

  softTypes!: CatalogSoftTypeDto[];
}

/** One class and the soft types below it. */
export class CatalogClassDetailsDto extends CatalogClassDto {
  /** The soft types of this class and below */
  softTypeDetails!: CatalogSoftTypeDto[];
}
