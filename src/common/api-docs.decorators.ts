import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  DECORATORS,
  type ApiQueryOptions,
} from '@nestjs/swagger';
import { OBJECT_BUSY_MESSAGE } from './database-errors.js';
import { ErrorEnvelopeDto } from './error-envelope.dto.js';
import { VersionDto } from './version.dto.js';

/** Basic auth or a bearer token, and the 401/429 answers every authenticated route shares. */
export function ApiAuthenticated() {
  return applyDecorators(
    ApiBasicAuth('basic'),
    ApiBearerAuth('bearer'),
    ApiResponse({ status: 401, description: 'missing or invalid credentials', type: ErrorEnvelopeDto }),
    ApiResponse({ status: 429, description: 'too many failed sign-ins (see Retry-After)', type: ErrorEnvelopeDto }),
  );
}

/** The error answers an operation documents, by status: each a description of when it comes. */
export type ApiErrorAnswers = Partial<
  Record<400 | 403 | 404 | 409 | 410 | 412 | 413 | 415 | 416 | 422 | 429 | 502 | 503 | 504, string>
>;

/** Every 503 of the service says when to retry. */
const RETRY_AFTER = {
  'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer' } },
};

/**
 * The 503 of a change that waited DB_LOCK_TIMEOUT_MS for another change of the same object (on
 * this instance without a database connection, then for the object's lock in PostgreSQL).
 */
export const OBJECT_BUSY_ANSWER = `${OBJECT_BUSY_MESSAGE}: the change waited DB_LOCK_TIMEOUT_MS for another change of the same object and changed nothing (Retry-After: 1)`;

/** The error answers of an operation (or of every operation of a controller), each an error envelope. */
export function ApiErrors(answers: ApiErrorAnswers) {
  return applyDecorators(
    ...Object.entries(answers).map(([status, description]) =>
      ApiResponse({
        status: Number(status),
        description,
        type: ErrorEnvelopeDto,
        ...(status === '503' && { headers: RETRY_AFTER }),
      }),
    ),
  );
}

/**
 * Documents each property of a query DTO as a URL parameter, from its @ApiProperty options, for
 * a route that reads the DTO with its own parameter decorator (Swagger sees only @Query()).
 * Written out key by key: `@ApiQuery({ type: Dto })` drops the properties' enums.
 */
export function ApiQueryKeys(dto: Type<unknown>) {
  const keys =
    (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype) as string[] | undefined) ?? [];
  return applyDecorators(
    ...keys.map((key) => {
      const name = key.replace(/^:/, '');
      const options = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, dto.prototype, name) as ApiQueryOptions;
      return ApiQuery({ ...options, name });
    }),
  );
}

/** Swagger description of a service's GET version route. */
export function ApiVersion(service: string) {
  return applyDecorators(
    ApiOperation({ summary: `Version record of the ${service} service` }),
    ApiOkResponse({ type: VersionDto }),
  );
}

/**
 * A small QML template that runs against the demo data: the latest documents whose number
 * matches the `number` parameter (default 0000*). Swagger UI cannot build an XML example from
 * a string schema, so XML bodies carry this one as their media type's example.
 */
export const QML_EXAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<qml>
    <parameter name="number" type="java.lang.String">
        <parameterDefault isMacro="false">0000*</parameterDefault>
    </parameter>
    <statement>
        <query>
            <select>
                <column alias="Document" heading="Number" type="java.lang.String">master&gt;number</column>
                <column alias="Document" heading="Name" type="java.lang.String">master&gt;name</column>
                <column alias="Document" heading="State" type="wt.lifecycle.State">state.state</column>
            </select>
            <from>
                <table alias="Document">wt.doc.WTDocument</table>
            </from>
            <where>
                <compositeCondition type="and">
                    <condition>
                        <operand>
                            <column alias="Document" heading="Number" type="java.lang.String">master&gt;number</column>
                        </operand>
                        <operator type="like"/>
                        <operand>
                            <parameterTarget name="number"/>
                        </operand>
                    </condition>
                    <condition>
                        <operand>
                            <column alias="Document" heading="Latest" type="boolean">iterationInfo.latest</column>
                        </operand>
                        <operator type="equal"/>
                        <operand>
                            <constant type="java.lang.Object">1</constant>
                        </operand>
                    </condition>
                </compositeCondition>
            </where>
            <orderBy>
                <orderByItem>
                    <columnTarget heading="Number"/>
                </orderByItem>
            </orderBy>
        </query>
    </statement>
</qml>
`;

/** A QML request body (text/xml or application/xml) with QML_EXAMPLE as the example of both. */
export function ApiQmlBody() {
  return applyDecorators(
    ApiConsumes('text/xml', 'application/xml'),
    ApiBody({
      description: 'A QML document (see docs/reports.md)',
      required: true,
      // An XML object whose root element is <qml>: with this schema Swagger UI takes the example
      // text as it is (a string schema it would wrap in an element, one without a name it refuses).
      schema: { type: 'object', xml: { name: 'qml' } },
      examples: {
        'documents by number': {
          summary: 'latest documents whose number matches the parameter `number` (default 0000*)',
          value: QML_EXAMPLE,
        },
      },
    }),
  );
}
