import { ApiProperty } from '@nestjs/swagger';

export class VersionDto {
  /** plug-in version */
  @ApiProperty({ example: '0.1.0' })
  version!: string;

  /** build number */
  @ApiProperty({ example: 42 })
  build!: number;

  /** build date, YYYY-MM-DD */
  @ApiProperty({ example: '2026-11-21' })
  date!: string;
}
