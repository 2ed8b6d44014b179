import { ApiProperty } from '@nestjs/swagger';

export class ErrorProblemDto {
  /** Where (the element of a QML template) */
  @ApiProperty({ example: '/qml/statement/query/from/table[2]' })
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

  /** Every problem found, each with its place: a report template naming unknown things has them all here */
  problems?: ErrorProblemDto[];
}
