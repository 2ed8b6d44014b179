import { ApiProperty } from '@nestjs/swagger';

/** Swagger description of the error envelope every service answers errors with. */
export class ErrorEnvelopeDto {
  @ApiProperty({ example: 404 })
  statusCode!: number;

  @ApiProperty({ example: 'Not Found' })
  error!: string;

  @ApiProperty({ example: 'no business object with number 0000000042' })
  message!: string;

  @ApiProperty({ example: '4f9c2a1e-8d1b-4f57-9a44-3c1f0c6f7e21' })
  requestId!: string;
}
