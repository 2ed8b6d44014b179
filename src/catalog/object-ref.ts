import { BadRequestException } from '@nestjs/common';
import type { Catalog } from './catalog.js';
import { BUSINESS_CLASSES } from './oid.js';
import { parseObjectReference } from './version-ref.js';

/**
 * How a request names a business object: an OID names one iteration
 * (`OR:wt.part.WTPart:<iteration id>`), a number the latest iteration of the object with that
 * number, of class `type` when given, else of whichever business class carries it.
 */
export type ObjectRef =
  /** `branch`: a version reference (VR:<class>:<branch id>): the latest iteration of that version */
  | { kind: 'oid'; text: string; cls: string; id: number; branch?: boolean }
  | { kind: 'number'; text: string; cls: string | null; number: string };

export function parseObjectRef(
  text: string,
  type: string | undefined,
  classes: readonly string[] = BUSINESS_CLASSES,
): ObjectRef {
  if (type !== undefined && !classes.includes(type)) {
    throw new BadRequestException(`type must be one of ${classes.join(', ')}, not "${type}"`);
  }
  const oid = parseObjectReference(text);
  if (oid) {
    if (!classes.includes(oid.cls)) {
      throw new BadRequestException(`business objects are those of ${classes.join(', ')}, not of ${oid.cls}`);
    }
    if (type !== undefined && type !== oid.cls) {
      throw new BadRequestException(`type ${type} contradicts the OID's class ${oid.cls}`);
    }
    return { kind: 'oid', text, cls: oid.cls, id: oid.id, ...(oid.branch && { branch: true }) };
  }
  if (text.length === 0 || text.length > 200) {
    throw new BadRequestException('an object is named by its OID or its number (1 to 200 characters)');
  }
  return { kind: 'number', text, cls: type ?? null, number: text };
}

/** A reference to a versioned object of any class of storage iteration of the catalog in force (declared ones too). */
export function parseVersionedRef(catalog: Catalog, text: string, type: string | undefined): ObjectRef {
  return parseObjectRef(text, type, catalog.concreteClasses('iteration'));
}

/** `levels`: 1 (the default), a positive number of levels, or max. */
export function parseLevels(text: string | undefined, maxLevels: number): number {
  if (text === undefined || text === '') return 1;
  if (text === 'max') return maxLevels;
  if (!/^[1-9][0-9]{0,5}$/.test(text) || Number(text) > maxLevels) {
    throw new BadRequestException(`levels must be 1 to ${maxLevels} or max, not "${text}"`);
  }
  return Number(text);
}
