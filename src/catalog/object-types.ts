import { BadRequestException } from '@nestjs/common';
import type { Catalog } from './catalog.js';
import type { CatalogClass } from './catalog-model.js';
import { clip } from '../common/clip.js';

/**
 * The types the object services make objects of, as a request names them: plain classes
 * (storage `object`) and versioned ones, with their soft types. One resolution for the object
 * services and for the numbering rules, which number the same classes.
 */

export interface PlainType {
  cls: CatalogClass;
  softType: string | null;
}

/** `type` of a plain object: a concrete class of storage `object`, or a soft type of one. */
export function plainType(catalog: Catalog, text: string): PlainType | null {
  const parts = text.replace(/^WCTYPE\|/, '').split('|');
  const last = parts[parts.length - 1];
  const cls = catalog.findClass(last);
  if (parts.length === 1 && cls) return cls.storage === 'object' && !cls.abstract ? { cls, softType: null } : null;
  const st = catalog.findSoftType(last);
  const base = st && catalog.findClass(st.cls);
  if (!st || !base || base.storage !== 'object' || base.abstract) return null;
  if (parts.length > 1 && !catalog.isA(st.cls, parts[0])) {
    throw new BadRequestException(`type: soft type ${st.name} is a type of ${st.cls}, not of ${clip(parts[0])}`);
  }
  return { cls: base, softType: st.name };
}

export interface ObjectType {
  cls: string;
  softType: string | null;
}

/**
 * A versioned class named alone (wt.part.WTPart, wt.change2.WTChangeOrder2 …), or a soft type of
 * one named alone (com.acme.SoftwarePart); null for anything else.
 */
export function versionedType(catalog: Catalog, name: string): ObjectType | null {
  const versioned = catalog.concreteClasses('iteration');
  if (versioned.includes(name)) return { cls: name, softType: null };
  const st = catalog.findSoftType(name);
  return st && versioned.includes(st.cls) ? { cls: st.cls, softType: st.name } : null;
}
