import type { Catalog } from '../catalog/catalog.js';
import { plainType, versionedType } from '../catalog/object-types.js';
import type { NumberedClass } from './numbers.repository.js';

/**
 * Which classes numbering rules number: those POST /objects makes objects of. One resolution for
 * `number: "generate"` of /objects and for POST /numbers/generate, so the two accept the same
 * classes and soft types and look for taken numbers in the same table.
 */

/**
 * The class whose rule numbers the objects of a type named alone (a class or a soft type),
 * resolved as POST /objects resolves its `type`: a plain class (storage `object`, the standard
 * catalog's or one a dataset declared) or a soft type of one, whose numbers rows of `objects`
 * carry; else a versioned class of the catalog in force (the standard catalog's or one a dataset
 * declared) or a soft type of one, whose numbers masters carry. Null when /objects makes no objects of it.
 */
export function numberedClass(catalog: Catalog, name: string): NumberedClass | null {
  const plain = plainType(catalog, name);
  if (plain) return { cls: plain.cls.name, table: 'objects' };
  const versioned = versionedType(catalog, name);
  return versioned && { cls: versioned.cls, table: 'masters' };
}

/**
 * Why a class or soft type the catalog knows gets no numbers (numberedClass gave null); null
 * when the catalog does not know the name at all.
 */
export function notNumberedReason(catalog: Catalog, name: string): string | null {
  const st = catalog.findSoftType(name);
  const cls = catalog.findClass(st ? st.cls : name);
  if (!cls) return null;
  let why: string;
  if (cls.abstract) why = `${cls.name} is abstract: objects are made of its subclasses`;
  else if (cls.storage === 'master') why = `${cls.name} is the master of versioned objects, numbered by their class`;
  else why = `${cls.name} is not a class of objects (storage ${cls.storage ?? 'mixed'})`;
  return st ? `${st.name} is a soft type of ${cls.name}; ${why}` : why;
}
