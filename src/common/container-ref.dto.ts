import { ApiProperty } from '@nestjs/swagger';

/** A container as answers name it: its OID and name. */
export class ContainerRefDto {
  @ApiProperty({ example: 'OR:wt.pdmlink.PDMLinkProduct:1' })
  oid!: string;

  @ApiProperty({ example: 'Drive Unit' })
  name!: string;
}
