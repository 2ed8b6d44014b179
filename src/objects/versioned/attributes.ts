import { BadRequestException } from '@nestjs/common';
import { clip } from '../../common/clip.js';

/**
 * Custom attributes of versioned objects (kept in their iterations): the values a request may
 * give, checked without the database, and how a change merges into the stored ones. The object
 * services take them with a new object or iteration, the CAD attribute service (cad/) changes them.
 */

/** A custom attribute value: a JSON scalar; null removes the attribute in a merge. */
export type AttributeValue = string | number | boolean;
export type AttributeChange = Record<string, AttributeValue | null>;

export const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;
export const MAX_ATTRIBUTES = 200;
export const MAX_ATTRIBUTE_TEXT = 4000;

/**
 * Checks an `attributes` object of a request: at most MAX_ATTRIBUTES names of the form
 * ATTRIBUTE_NAME, each a string (up to MAX_ATTRIBUTE_TEXT characters), a finite number, a
 * boolean or null. The 400 names the field: `attributes.<name>`.
 */
export function checkAttributes(value: unknown, field = 'attributes'): AttributeChange {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BadRequestException(`${field} must be an object of name → value`);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_ATTRIBUTES) {
    throw new BadRequestException(`${field} has ${entries.length} names; at most ${MAX_ATTRIBUTES} may be given`);
  }
  for (const [name, v] of entries) {
    if (!ATTRIBUTE_NAME.test(name)) {
      throw new BadRequestException(
        `${field}: "${clip(name)}" is not an attribute name (a letter or _, then up to 99 letters, digits, _ . -)`,
      );
    }
    const ok =
      v === null ||
      typeof v === 'boolean' ||
      (typeof v === 'number' && Number.isFinite(v)) ||
      (typeof v === 'string' && v.length <= MAX_ATTRIBUTE_TEXT);
    if (!ok) {
      throw new BadRequestException(
        `${field}.${name} must be a string of at most ${MAX_ATTRIBUTE_TEXT} characters, a number, true, false or null`,
      );
    }
  }
  return value as AttributeChange;
}

/** Merges a change into stored attributes: null removes a name, anything else sets it. */
export function mergeAttributes(stored: unknown, change: AttributeChange): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {
    ...(stored && typeof stored === 'object' && !Array.isArray(stored)
      ? (stored as Record<string, AttributeValue>)
      : {}),
  };
  for (const [name, v] of Object.entries(change)) {
    if (v === null) delete out[name];
    else out[name] = v;
  }
  return out;
}
