import { ApiProperty } from '@nestjs/swagger';
import { ContainerRefDto } from '../../common/container-ref.dto.js';
import { OidClass } from '../../catalog/oid.js';

/** One iteration of a versioned object: a document, part, CAD document, change object … */
export class ObjectDto {
  /** OID of this iteration */
  @ApiProperty({ example: 'OR:wt.doc.WTDocument:42' })
  oid!: string;

  /** OID of the object (its master), shared by all iterations */
  @ApiProperty({ example: 'OR:wt.doc.WTDocumentMaster:17' })
  masterOid!: string;

  /**
   * the version's reference, VR:<class>:<branch id> (the id of the version's first iteration): shared by the version's
   * iterations, taken wherever an OID is (it names the version's latest iteration); what report templates produce as
   * `versionReference`
   */
  @ApiProperty({ example: 'VR:wt.doc.WTDocument:42' })
  versionReference!: string;

  @ApiProperty({ example: '0000000100' })
  number!: string;

  /** the object's name (of its master: every iteration shows the current one) */
  @ApiProperty({ example: 'Gearbox specification' })
  name!: string;

  /** the soft type when the object has one, else its class: what `type` of a create takes */
  @ApiProperty({ example: OidClass.document })
  type!: string;

  @ApiProperty({ example: OidClass.document })
  class!: string;

  @ApiProperty({ type: String, example: null })
  softType!: string | null;

  /** CAD documents: CADASSEMBLY, CADCOMPONENT or CADDRAWING */
  @ApiProperty({ type: String, example: null })
  subtype!: string | null;

  @ApiProperty({ example: 'A' })
  version!: string;

  @ApiProperty({ example: 1 })
  iteration!: number;

  /** whether this is the latest iteration (of the latest version) */
  @ApiProperty({ example: true })
  latest!: boolean;

  /** lifecycle state (OBJECTS_LIFECYCLE) */
  @ApiProperty({ example: 'INWORK' })
  state!: string;

  /** documents only */
  @ApiProperty({ type: String, example: 'Gearbox specification, issue 1' })
  title!: string | null;

  @ApiProperty({ type: String, example: null })
  description!: string | null;

  /** the check-in comment of the iteration */
  @ApiProperty({ type: String, example: 'first issue' })
  note!: string | null;

  container!: ContainerRefDto;

  /** custom attributes of the iteration: name → string, number or boolean */
  @ApiProperty({ type: 'object', additionalProperties: true, example: { language: 'en', pages: 12 } })
  attributes!: Record<string, string | number | boolean>;

  /** user who made the iteration */
  @ApiProperty({ example: 'alice' })
  createdBy!: string;

  @ApiProperty({ example: '2026-11-24T09:30:00.000Z' })
  createdAt!: Date;

  /** user who changed it last */
  @ApiProperty({ example: 'alice' })
  modifiedBy!: string;

  @ApiProperty({ example: '2026-11-24T09:30:00.000Z' })
  modifiedAt!: Date;

  /** whether the object is checked out (POST /objects/<ref>/checkout) */
  @ApiProperty({ example: false })
  isCheckedOut!: boolean;

  /** who holds it checked out: only they may change it until it is checked in */
  @ApiProperty({ type: String, example: null })
  checkedOutBy!: string | null;

  /**
   * whether this iteration is the working copy of a check-out (seen by its holder alone; check-in makes it the
   * latest iteration)
   */
  @ApiProperty({ example: false })
  workingCopy!: boolean;
}

export class IterationListDto {
  @ApiProperty({ example: '0000000001' })
  number!: string;

  @ApiProperty({ example: OidClass.document })
  class!: string;

  @ApiProperty({ example: 2 })
  count!: number;

  /** every iteration of every version, oldest first (A.1, A.2, B.1 …) */
  items!: ObjectDto[];
}

export class DeletedObjectDto {
  @ApiProperty({ example: 'OR:wt.doc.WTDocumentMaster:5' })
  masterOid!: string;

  @ApiProperty({ example: '0000000005' })
  number!: string;

  @ApiProperty({ example: OidClass.document })
  class!: string;

  /** iterations deleted */
  @ApiProperty({ example: 1 })
  iterations!: number;

  /** file references (content items) deleted with them */
  @ApiProperty({ example: 0 })
  files!: number;

  /** usage links of other objects that used it, removed (force=true) */
  @ApiProperty({ example: 0 })
  usedBy!: number;

  /** catalog links (change objects, described-by …) naming it or one of its iterations, removed (force=true) */
  @ApiProperty({ example: 0 })
  links!: number;

  /**
   * plain objects whose JSON references named it (a work item’s primaryBusinessObject …), the references removed
   * (force=true)
   */
  @ApiProperty({ example: 0 })
  references!: number;
}

export class UseMemberDto {
  /** latest iteration of the used object; null when restricted */
  @ApiProperty({ type: String, example: 'OR:wt.part.WTPart:20' })
  oid!: string | null;

  @ApiProperty({ type: String, example: 'P-00000003' })
  number!: string | null;

  @ApiProperty({ type: String, example: 'Motor controller firmware' })
  name!: string | null;

  /** the used object is in a container the caller may not read: shown without details */
  @ApiProperty({ example: true })
  restricted?: true;
}

/** A usage link: a part's WTPartUsageLink or a CAD assembly's EPMMemberLink. */
export class ObjectUseDto {
  /** link id: names the link in PATCH and DELETE (a new iteration copies links under new ids) */
  @ApiProperty({ example: 31 })
  id!: number;

  @ApiProperty({ example: 'OR:wt.part.WTPartUsageLink:31' })
  oid!: string;

  /** the iteration holding the link */
  @ApiProperty({ example: 'OR:wt.part.WTPart:11' })
  parent!: string;

  member!: UseMemberDto;

  @ApiProperty({ example: 1 })
  quantity!: number;

  @ApiProperty({ example: 'ea' })
  unit!: string;

  @ApiProperty({ type: 'integer', example: 40 })
  lineNumber!: number | null;
}
