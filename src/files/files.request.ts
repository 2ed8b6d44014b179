import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { Request } from 'express';
import { UploadFileBodyDto } from './dto/files-request.dto.js';
import type { ChangeConditions } from './files.service.js';
import { parseDigestHeaders, parseEntityTags, type ExpectedDigests } from './download/http-conditions.js';

/**
 * Reading the parts of a write request that are not route or URL parameters: which body form
 * it uses, the JSON body, and the conditional and integrity headers.
 */

/** JSON (parsed by the app's body parser) or raw bytes (left unread for streaming). */
export function uploadKind(req: Request): 'json' | 'raw' {
  const type = req.get('content-type');
  if (type === undefined) {
    const hasBody = req.get('transfer-encoding') !== undefined || Number(req.get('content-length') ?? 0) > 0;
    if (!hasBody) {
      throw new BadRequestException(
        'request body is missing: send JSON {"data": "<base64>"} or application/octet-stream',
      );
    }
  } else if (req.is('application/json')) {
    return 'json';
  } else if (req.is('application/octet-stream')) {
    const encoding = req.get('content-encoding');
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      throw new UnsupportedMediaTypeException(`Content-Encoding ${encoding} is not supported for raw uploads`);
    }
    return 'raw';
  }
  throw new UnsupportedMediaTypeException(
    'send the file as JSON {"data": "<base64>"} or as raw bytes with Content-Type: application/octet-stream' +
      (type ? `, not ${type}` : ''),
  );
}

/** The JSON body, validated like every DTO of the app (unknown fields are refused). */
export function parseUploadBody(body: unknown): UploadFileBodyDto {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestException('the JSON body must be an object with "data": the file content in base64');
  }
  if (!('data' in body) || body.data === null) {
    throw new BadRequestException('the JSON body needs "data": the file content in base64');
  }
  const dto = plainToInstance(UploadFileBodyDto, body);
  const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) {
    throw new BadRequestException(errors.flatMap((e) => Object.values(e.constraints ?? {})).join('; '));
  }
  return dto;
}

// A malformed header throws a HeaderError, answered 400 with its message (common/input-error.ts).

export function changeConditions(req: Request): ChangeConditions {
  const ifMatch = req.get('if-match');
  const ifNoneMatch = req.get('if-none-match');
  return {
    ...(ifMatch !== undefined && { ifMatch: parseEntityTags(ifMatch, 'If-Match') }),
    ...(ifNoneMatch !== undefined && { ifNoneMatch: parseEntityTags(ifNoneMatch, 'If-None-Match') }),
  };
}

export function digestHeaders(req: Request): ExpectedDigests {
  return parseDigestHeaders({
    digest: req.get('digest'),
    'content-digest': req.get('content-digest'),
    'content-md5': req.get('content-md5'),
  });
}
