import { BadRequestException } from '@nestjs/common';
import { BUSINESS_CLASSES, isBusinessClass, OidClass } from '../catalog/oid.js';
import { parseObjectReference } from '../catalog/version-ref.js';
import type { UploadFileBodyDto, WriteFileQueryDto } from './dto/files-request.dto.js';
import { fileNameProblem, isMediaType } from './file-name.js';

/**
 * How a request names the iteration holding files: an OID names one iteration, a number the
 * latest iteration of the object of class `type` (a document unless the caller says otherwise).
 */
export type HolderRef =
  /** `branch`: a version reference (VR:<class>:<branch id>): the latest iteration of that version */
  | { kind: 'oid'; text: string; cls: string; id: number; branch?: boolean }
  | { kind: 'number'; text: string; cls: string; number: string };

export function parseHolderRef(text: string, type: string | undefined): HolderRef {
  const oid = parseObjectReference(text);
  if (oid) {
    if (!isBusinessClass(oid.cls)) {
      throw new BadRequestException(`files are held by ${BUSINESS_CLASSES.join(', ')}; ${oid.cls} holds none`);
    }
    if (type !== undefined && type !== oid.cls) {
      throw new BadRequestException(`type ${type} contradicts the OID's class ${oid.cls}`);
    }
    return { kind: 'oid', text, cls: oid.cls, id: oid.id, ...(oid.branch && { branch: true }) };
  }
  return { kind: 'number', text, cls: type ?? OidClass.document, number: text };
}

/** The file name from the URL in NFC (how names are stored), or 400 saying what is wrong with it. */
export function checkedFileName(raw: string): string {
  const name = raw.normalize('NFC');
  const problem = fileNameProblem(name);
  if (problem) throw new BadRequestException(`file name ${JSON.stringify(name)} ${problem}`);
  return name;
}

/** Options of a create/update after merging body and URL parameters. */
export interface WriteOptions {
  /** null: keep the role of an existing file, SECONDARY for a new one. */
  role: string | null;
  iterate: boolean;
  /** null: the default message. */
  message: string | null;
  /** null: keep the type of an existing file, guess from the name for a new one. */
  mimetype: string | null;
}

/**
 * The body's fields win over URL parameters of the same name: the body is the more deliberate
 * of the two, and a proxy or script template may add URL parameters the sender did not choose.
 */
export function mergeWriteOptions(body: Partial<UploadFileBodyDto>, query: WriteFileQueryDto): WriteOptions {
  const mimetype = body.mimetype ?? query.mimetype ?? null;
  if (mimetype !== null && !isMediaType(mimetype)) {
    throw new BadRequestException(`mimetype "${mimetype}" is not a media type like text/plain`);
  }
  return {
    role: body.role ?? query.role ?? null,
    iterate: body.iterate ?? query.iterate === 'true',
    message: body.message ?? query.message ?? null,
    mimetype,
  };
}

export function defaultMessage(fileName: string): string {
  return `update file '${fileName}'`;
}

/** Encodes a path segment, keeping the colons of OIDs readable (they are valid in a path). */
export function pathSegment(text: string): string {
  return encodeURIComponent(text).replace(/%3A/gi, ':');
}
