import { ApiProperty } from '@nestjs/swagger';
import { ContainerRefDto } from '../../numbers/dto/numbers-response.dto.js';
import { OidClass } from '../../common/oid.js';

/** One iteration of a versioned object: a document, part, CAD document, change object … */
export class ObjectDto {
  @ApiProperty({ description: 'OID of this iteration', example: 'OR:wt.doc.WTDocument:42' })
  oid!: string;

  @ApiProperty({
    description: 'OID of the object (its master), shared by all iterations',
    example: 'OR:wt.doc.WTDocumentMaster:17',
  })
  masterOid!: string;

  @ApiProperty({
    description:
      "the version's reference, VR:<class>:<branch id> (the id of the version's first iteration): shared by the " +
      "version's iterations, taken wherever an OID is (it names the version's latest iteration); what report " +
      'templates produce as `versionReference`',
    example: 'VR:wt.doc.WTDocument:42',
  })
  versionReference!: string;

  @ApiProperty({ example: '0000000100' })
  number!: string;

  @ApiProperty({
    description: "the object's name (of its master: every iteration shows the current one)",
    example: 'Gearbox specification',
  })
  name!: string;

  @ApiProperty({
    description: 'the soft type when the object has one, else its class: what `type` of a create takes',
    example: OidClass.document,
  })
  type!: string;

  @ApiProperty({ example: OidClass.document })
  class!: string;

  @ApiProperty({ nullable: true, type: String, example: null })
  softType!: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    description: 'CAD documents: CADASSEMBLY, CADCOMPONENT or CADDRAWING',
    example: null,
  })
  subtype!: string | null;

  @ApiProperty({ example: 'A' })
  version!: string;

  @ApiProperty({ example: 1 })
  iteration!: number;

  @ApiProperty({ description: 'whether this is the latest iteration (of the latest version)', example: true })
  latest!: boolean;

  @ApiProperty({ description: 'lifecycle state (OBJECTS_LIFECYCLE)', example: 'INWORK' })
  state!: string;

  @ApiProperty({
    nullable: true,
    type: String,
    description: 'documents only',
    example: 'Gearbox specification, issue 1',
  })
  title!: string | null;

  @ApiProperty({ nullable: true, type: String, example: null })
  description!: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    description: 'the check-in comment of the iteration',
    example: 'first issue',
  })
  note!: string | null;

  @ApiProperty({ type: ContainerRefDto })
  container!: ContainerRefDto;

  @ApiProperty({
    description: 'custom attributes of the iteration: name → string, number or boolean',
    type: 'object',
    additionalProperties: true,
    example: { language: 'en', pages: 12 },
  })
  attributes!: Record<string, string | number | boolean>;

  @ApiProperty({ description: 'user who made the iteration', example: 'alice' })
  createdBy!: string;

  @ApiProperty({ example: '2026-11-24T09:30:00.000Z' })
  createdAt!: Date;

  @ApiProperty({ description: 'user who changed it last', example: 'alice' })
  modifiedBy!: string;

  @ApiProperty({ example: '2026-11-24T09:30:00.000Z' })
  modifiedAt!: Date;
}

export class IterationListDto {
  @ApiProperty({ example: '0000000001' })
  number!: string;

  @ApiProperty({ example: OidClass.document })
  class!: string;

  @ApiProperty({ example: 2 })
  count!: number;

  @ApiProperty({ type: [ObjectDto], description: 'every iteration of every version, oldest first (A.1, A.2, B.1 …)' })
  items!: ObjectDto[];
}

export class DeletedObjectDto {
  @ApiProperty({ example: 'OR:wt.doc.WTDocumentMaster:5' })
  masterOid!: string;

  @ApiProperty({ example: '0000000005' })
  number!: string;

  @ApiProperty({ example: OidClass.document })
  class!: string;

  @ApiProperty({ description: 'iterations deleted', example: 1 })
  iterations!: number;

  @ApiProperty({ description: 'file references (content items) deleted with them', example: 0 })
  files!: number;

  @ApiProperty({ description: 'usage links of other objects that used it, removed (force=true)', example: 0 })
  usedBy!: number;

  @ApiProperty({
    description:
      'catalog links (change objects, described-by …) naming it or one of its iterations, removed (force=true)',
    example: 0,
  })
  links!: number;

  @ApiProperty({
    description:
      'plain objects whose JSON references named it (a work item’s primaryBusinessObject …), the references removed (force=true)',
    example: 0,
  })
  references!: number;
}

export class UseMemberDto {
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'latest iteration of the used object; null when restricted',
    example: 'OR:wt.part.WTPart:20',
  })
  oid!: string | null;

  @ApiProperty({ nullable: true, type: String, example: 'P-00000003' })
  number!: string | null;

  @ApiProperty({ nullable: true, type: String, example: 'Motor controller firmware' })
  name!: string | null;

  @ApiProperty({
    required: false,
    description: 'the used object is in a container the caller may not read: shown without details',
    example: true,
  })
  restricted?: true;
}

/** A usage link: a part's WTPartUsageLink or a CAD assembly's EPMMemberLink. */
export class ObjectUseDto {
  @ApiProperty({
    description: 'link id: names the link in PATCH and DELETE (a new iteration copies links under new ids)',
    example: 31,
  })
  id!: number;

  @ApiProperty({ example: 'OR:wt.part.WTPartUsageLink:31' })
  oid!: string;

  @ApiProperty({ description: 'the iteration holding the link', example: 'OR:wt.part.WTPart:11' })
  parent!: string;

  @ApiProperty({ type: UseMemberDto })
  member!: UseMemberDto;

  @ApiProperty({ example: 1 })
  quantity!: number;

  @ApiProperty({ example: 'ea' })
  unit!: string;

  @ApiProperty({ type: 'integer', nullable: true, example: 40 })
  lineNumber!: number | null;
}
