import { QmlError } from '../qml-error.js';
import type { QmlElement } from './parse.js';

/**
 * Rules on the elements and attributes of a parsed document, shared by the validator
 * (validate/validate.ts) and the front end of the query layout (layouts/query/query-layout.ts):
 * each throws a QmlError naming the element.
 */

export const fail = (path: string, reason: string): never => {
  throw new QmlError(path, reason);
};

export function only(el: QmlElement, allowed: readonly string[]): void {
  for (const c of el.children) {
    if (!allowed.includes(c.name)) fail(c.path, `unexpected element "${c.name}" in ${el.name}`);
  }
}

export function one(el: QmlElement, name: string): QmlElement {
  const found = el.children.filter((c) => c.name === name);
  if (found.length !== 1) fail(el.path, `${el.name} needs exactly one ${name} element, found ${found.length}`);
  return found[0];
}

export function optional(el: QmlElement, name: string): QmlElement | null {
  const found = el.children.filter((c) => c.name === name);
  if (found.length > 1) fail(found[1].path, `${el.name} takes at most one ${name} element`);
  return found[0] ?? null;
}

/** A true or false attribute; `absent` when it is missing or blank. */
export function bool(el: QmlElement, attr: string, absent = false): boolean {
  const v = el.attrs[attr];
  if (v === undefined || v.trim() === '') return absent;
  const t = v.trim().toLowerCase();
  if (t === 'true') return true;
  if (t === 'false') return false;
  return fail(`${el.path}/@${attr}`, `"${v}" is not true or false`);
}

export function requiredAttr(el: QmlElement, attr: string): string {
  const v = el.attrs[attr]?.trim();
  if (!v) fail(el.path, `attribute "${attr}" is required`);
  return v!;
}
