import { ApiProperty } from '@nestjs/swagger';
import { OidClass } from '../../catalog/oid.js';
import { ContainerRefDto } from '../../common/container-ref.dto.js';

/** `files`: a file of the item, as `GET /files/<oid>?role=all` lists it. */
export class FileEntryDto {
  /** the file's bytes (HTTP Basic), in the item's iteration */
  @ApiProperty({ example: 'http://localhost:3000/files/OR:wt.doc.WTDocument:2/spec.txt' })
  url!: string;

  /** content role */
  @ApiProperty({ example: 'PRIMARY' })
  role!: string;

  @ApiProperty({ example: 'spec.txt' })
  filename!: string;

  @ApiProperty({ example: 'text/plain' })
  mimetype!: string;

  /** size in bytes */
  @ApiProperty({ example: 48 })
  size!: number;

  /** OID of the content item */
  @ApiProperty({ example: 'OR:wt.content.ApplicationData:3' })
  oid!: string;

  /** SHA-256 of the content, hex */
  @ApiProperty({ example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' })
  sha256!: string;
}

/** `representations`: a file of a representation role (THUMBNAIL, DRAWING) of the item. */
export class RepresentationEntryDto {
  @ApiProperty({ example: 'THUMBNAIL' })
  role!: string;

  @ApiProperty({ example: 'thumbnail.png' })
  name!: string;

  /** the image's bytes (HTTP Basic) */
  @ApiProperty({ example: 'http://localhost:3000/files/OR:wt.doc.WTDocument:2/thumbnail.png' })
  url!: string;

  @ApiProperty({ example: 'image/png' })
  mimeType!: string;
}

/** `ibas`: a custom attribute of the item's iteration. */
export class AttributeEntryDto {
  @ApiProperty({ example: 'material' })
  name!: string;

  /** the stored JSON value: string, number, boolean or null */
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }], example: 'AlSi10Mg' })
  value!: unknown;
}

/** `uses`, `usedBy`, `describedBy`: a related object the caller may read, and the link to it. */
export class RelatedEntryDto {
  /** the related iteration: the latest one (uses, usedBy), the one the link names (describedBy); null for a used object without iterations */
  @ApiProperty({ type: String, example: 'OR:wt.part.WTPart:14' })
  oid!: string | null;

  @ApiProperty({ example: OidClass.part })
  type!: string;

  /** CAD document subtype */
  @ApiProperty({ type: String, example: null })
  subtype!: string | null;

  @ApiProperty({ example: 'P-00000002' })
  number!: string;

  @ApiProperty({ example: 'Housing' })
  name!: string;

  @ApiProperty({ type: String, example: 'A' })
  version!: string | null;

  @ApiProperty({ type: 'integer', example: 1 })
  iteration!: number | null;

  @ApiProperty({ type: String, example: 'RELEASED' })
  state!: string | null;

  @ApiProperty({ type: Boolean, example: true })
  latest!: boolean | null;

  container!: ContainerRefDto;

  /** OID of the usage or describe link */
  @ApiProperty({ example: 'OR:wt.part.WTPartUsageLink:4' })
  link!: string;

  /** usage links: quantity (null for describe links) */
  @ApiProperty({ type: Number, example: 1 })
  quantity!: number | null;

  @ApiProperty({ type: String, example: 'ea' })
  unit!: string | null;

  @ApiProperty({ type: 'integer', example: 10 })
  lineNumber!: number | null;

  /** CAD member links: reference designator */
  @ApiProperty({ type: String, example: null })
  referenceNumber!: string | null;
}
