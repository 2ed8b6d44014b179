import { ApiProperty } from '@nestjs/swagger';

export class VersionDto {
  @ApiProperty({ description: 'plug-in version', example: '0.1.0' })
  version!: string;

  @ApiProperty({ description: 'build number', example: 42 })
  build!: number;

  @ApiProperty({ description: 'build date, YYYY-MM-DD', example: '2026-11-21' })
  date!: string;
}
