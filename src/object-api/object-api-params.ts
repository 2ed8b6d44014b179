import { BadRequestException } from '@nestjs/common';
import type { ObjectRef } from '../catalog/object-ref.js';
import { OidClass } from '../catalog/oid.js';
import { parseObjectReference } from '../catalog/version-ref.js';
import { clip } from '../common/clip.js';
import { likePattern } from '../common/wildcard.js';

/**
 * The object resources of api/1.0 and how their parameters read, as the original gateway's
 * clients send them.
 */

/** Resource name → the class it lists (with the classes below it and their soft types). */
export const OBJECT_RESOURCES = {
  documents: OidClass.document,
  epmdocuments: OidClass.cadDocument,
  parts: OidClass.part,
} as const;

export type ObjectResource = keyof typeof OBJECT_RESOURCES;

/** Page sizes of api/1.0 lists: the original's command-line client asks for 100 by default. */
export const API_LIMIT_DEFAULT = 100;
export const API_LIMIT_MAX = 1000;
export const API_START_MAX = 1_000_000_000;

/** The forms of a flag the clients send (the Python client sends `True` and `yes`). */
export const FLAG = /^(yes|no|true|false|on|off|1|0)$/i;

/** A flag's value, or `fallback` when it is absent (its form is checked by the DTO). */
export function flag(text: string | undefined, fallback: boolean): boolean {
  if (text === undefined) return fallback;
  return /^(yes|true|on|1)$/i.test(text);
}

/** A name or number filter with `*` and `?` as SQL LIKE pattern; null when absent or `*`. */
export function wildcardFilter(text: string | undefined): string | null {
  if (text === undefined || text === '*') return null;
  return likePattern(text, 'names');
}

/**
 * The object an item route names: `OR:<class>:<id>` (an iteration), `VR:<class>:<branch id>`
 * (that version's latest iteration) or a number (the latest iteration of the object carrying
 * it). An OID of a class the resource does not list is a 400.
 */
export function parseItemRef(text: string, resource: ObjectResource, classes: readonly string[]): ObjectRef {
  const oid = parseObjectReference(text, `"${clip(text)}"`);
  if (oid) {
    if (!classes.includes(oid.cls)) {
      throw new BadRequestException(
        `${resource} are objects of ${OBJECT_RESOURCES[resource]} and the classes below it, not of ${clip(oid.cls)}`,
      );
    }
    return { kind: 'oid', text, cls: oid.cls, id: oid.id, ...(oid.branch && { branch: true }) };
  }
  if (text.length > 200)
    throw new BadRequestException('an object is named by its OID or its number (1 to 200 characters)');
  return { kind: 'number', text, cls: null, number: text };
}
