import { BadRequestException } from '@nestjs/common';
import { CONTAINER_CLASSES, isContainerClass, OidClass, parseOid } from '../catalog/oid.js';
import { clip } from '../common/clip.js';

/**
 * The URL parameters of the number service, checked without the database: which container
 * source was given and how many numbers (the class: numbered-class.ts). Every problem is a 400 that
 * says what is accepted.
 */

export const SOURCE_PARAMETERS = ['container-ref', 'container-name', 'workspace-name', 'workspace-ref'] as const;
export type SourceParameter = (typeof SOURCE_PARAMETERS)[number];

/** Where the container (and so its numbering rules) comes from. */
export type ContainerSource =
  | { kind: 'container-ref'; text: string; cls: string; id: number }
  | { kind: 'container-name'; text: string }
  | { kind: 'workspace-name'; text: string }
  | { kind: 'workspace-ref'; text: string; id: number };

const SOURCE_LIST = 'container-ref, container-name, workspace-name or workspace-ref';

export function pickSource(query: Partial<Record<SourceParameter, string>>): ContainerSource {
  const given = SOURCE_PARAMETERS.filter((p) => query[p] !== undefined);
  if (given.length === 0) {
    throw new BadRequestException(`say which container's numbering rules to use: give one of ${SOURCE_LIST}`);
  }
  if (given.length > 1) {
    throw new BadRequestException(`give only one of ${SOURCE_LIST}, not ${given.join(' and ')}`);
  }
  const kind = given[0];
  const text = query[kind] as string;
  if (text.trim() === '') throw new BadRequestException(`${kind} must not be empty`);
  switch (kind) {
    case 'container-ref': {
      const oid = parseOid(text);
      if (!oid || !isContainerClass(oid.cls)) {
        throw new BadRequestException(
          `container-ref '${clip(text)}' is not a container OID like OR:wt.pdmlink.PDMLinkProduct:1 ` +
            `(container classes: ${CONTAINER_CLASSES.join(', ')})`,
        );
      }
      return { kind, text, cls: oid.cls, id: oid.id };
    }
    case 'workspace-ref': {
      const oid = parseOid(text);
      if (!oid || oid.cls !== OidClass.workspace) {
        throw new BadRequestException(
          `workspace-ref '${clip(text)}' is not a workspace OID like OR:${OidClass.workspace}:1`,
        );
      }
      return { kind, text, id: oid.id };
    }
    default:
      return { kind, text };
  }
}

/** `count`: absent means 1; otherwise plain decimal digits, 1 to max. */
export function parseCount(raw: string | undefined, max: number): number {
  if (raw === undefined) return 1;
  const n = /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= max)) {
    throw new BadRequestException(`count must be a whole number from 1 to ${max}, got '${clip(raw)}'`);
  }
  return n;
}
