import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { OidClass } from '../../catalog/oid.js';

// A repeated URL parameter arrives as an array: that is the only way these checks fail.
const ONCE = { message: '$property must be given at most once' };

/**
 * The container whose numbering rules apply: exactly one of the four parameters. Only
 * container-name has an example, so that Swagger UI's "Try it out" sends exactly one.
 */
export class ContainerSourceQueryDto {
  /** OID of the container; its class is the container class (e.g. OR:wt.pdmlink.PDMLinkProduct:1) */
  @IsOptional()
  @IsString(ONCE)
  'container-ref'?: string;

  /** name of the container */
  @ApiPropertyOptional({ example: 'Drive Unit' })
  @IsOptional()
  @IsString(ONCE)
  'container-name'?: string;

  /** name of a workspace; its container is used (e.g. alice-ws) */
  @IsOptional()
  @IsString(ONCE)
  'workspace-name'?: string;

  /** OID of a workspace; its container is used (e.g. OR:wt.epm.workspaces.EPMWorkspace:1) */
  @IsOptional()
  @IsString(ONCE)
  'workspace-ref'?: string;
}

export class GenerateNumbersQueryDto extends ContainerSourceQueryDto {
  /** how many consecutive numbers to generate, 1 to NUMBERS_MAX_COUNT (default 10000) */
  // Kept as text: the service checks it strictly (1e3, 0x10, 1.5 are refused, not converted).
  @ApiPropertyOptional({ type: 'integer', default: 1, minimum: 1, example: 3 })
  @IsOptional()
  @IsString(ONCE)
  count?: string;
}

export class ClassNameParamDto {
  /**
   * class the numbers are for: wt.doc.WTDocument, wt.epm.EPMDocument, wt.part.WTPart, another class POST /objects makes
   * objects of (a versioned class of the catalog such as wt.change2.WTChangeOrder2, a plain class such as
   * wt.workflow.engine.WfProcess, a plain class a dataset declared), a soft type of one named alone
   * (com.acme.SoftwarePart), or a soft subtype written <class>|<subtype> (URL-encode the | as %7C); a soft type uses
   * its class's rule
   */
  @ApiProperty({ example: OidClass.document })
  @IsString()
  className!: string;
}
