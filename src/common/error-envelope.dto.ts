import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ErrorProblemDto {
  @ApiProperty({ description: 'Where (the element of a QML template)', example: '/qml/statement/query/from/table[2]' })
  path!: string;

  @ApiProperty({ example: 'unknown class com.acme.Gadget: neither it nor its package com.acme is in the catalog' })
  message!: string;
}

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

  @ApiPropertyOptional({
    description: 'Every problem found, each with its place: a report template naming unknown things has them all here',
    type: [ErrorProblemDto],
  })
  problems?: ErrorProblemDto[];
}
