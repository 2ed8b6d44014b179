import { applyDecorators } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from './error-envelope.dto.js';
import { VersionDto } from './version.dto.js';

/** Basic auth and the 401/429 answers every authenticated route shares. */
export function ApiAuthenticated() {
  return applyDecorators(
    ApiBasicAuth('basic'),
    ApiResponse({ status: 401, description: 'missing or invalid credentials', type: ErrorEnvelopeDto }),
    ApiResponse({ status: 429, description: 'too many failed sign-ins (see Retry-After)', type: ErrorEnvelopeDto }),
  );
}

/** Swagger description of a service's GET version route. */
export function ApiVersion(service: string) {
  return applyDecorators(
    ApiOperation({ summary: `Version record of the ${service} service` }),
    ApiOkResponse({ type: VersionDto }),
  );
}
