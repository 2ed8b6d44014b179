import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { Metadata } from '@tus/utils';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { WriteFileQueryDto } from '../dto/files-request.dto.js';
import { checkedFileName, mergeWriteOptions } from '../files.params.js';
import type { TusTarget } from './tus-uploads.repository.js';

/** The Upload-Metadata keys of a new upload besides `ref` and `filename`: those of a raw upload's URL. */
const OPTION_KEYS = ['type', 'role', 'iterate', 'message', 'mimetype'] as const;

/** An upload's id: 32 hex digits (128 random bits). */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;

/**
 * The file a new upload is for, from its Upload-Metadata: `ref` (an OID or a number) and
 * `filename`, both required, and `type`, `role`, `iterate`, `message`, `mimetype` as a raw
 * upload takes them as URL parameters, checked the same way. Other keys (clients such as Uppy
 * add their own) are ignored.
 */
export function parseTusTarget(header: string | undefined): TusTarget {
  let metadata: Record<string, string | null> = {};
  try {
    if (header?.trim()) metadata = Metadata.parse(header);
  } catch {
    throw new BadRequestException(
      'Upload-Metadata is not a comma-separated list of "<key> <base64 value>" pairs with distinct keys',
    );
  }
  const ref = metadata.ref;
  const filename = metadata.filename;
  if (!ref || !filename) {
    throw new BadRequestException(
      'Upload-Metadata needs "ref" (the OID or number of the object) and "filename" (the file to write), base64-encoded',
    );
  }
  const fields: Record<string, string> = {};
  for (const key of OPTION_KEYS) {
    const value = metadata[key];
    if (value !== undefined && value !== null) fields[key] = value;
  }
  const query = plainToInstance(WriteFileQueryDto, fields);
  const errors = validateSync(query, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) {
    throw new BadRequestException(
      `Upload-Metadata: ${errors.flatMap((e) => Object.values(e.constraints ?? {})).join('; ')}`,
    );
  }
  return {
    ref,
    holderType: query.type ?? null,
    fileName: checkedFileName(filename),
    options: mergeWriteOptions({}, query),
  };
}

/** The declared Upload-Length: required (a deferred length could not be counted against the limits). */
export function parseUploadLength(header: string | undefined, max: number): number {
  if (header === undefined) {
    throw new BadRequestException(
      'Upload-Length is required: the size of the whole file in bytes (Upload-Defer-Length is not supported)',
    );
  }
  if (!/^\d{1,15}$/.test(header)) throw new BadRequestException(`Upload-Length "${header}" is not a number of bytes`);
  const length = Number(header);
  if (length > max) {
    throw new PayloadTooLargeException(`the file is larger than the limit of ${max} bytes (FILES_MAX_SIZE)`);
  }
  return length;
}
