import { BadRequestException } from '@nestjs/common';
import type { Catalog } from '../../catalog/catalog.js';
import type { PropertyType } from '../../catalog/catalog-model.js';
import { OidClass } from '../../catalog/oid.js';
import { jsonProperties, typedValue } from '../../catalog/property-values.js';
import { CAD_SUBTYPES } from '../../catalog/standard-classes.js';
import { checkAttributes, type AttributeChange } from './attributes.js';
import { clip } from '../../common/clip.js';
import { versionedType, type ObjectType } from '../../catalog/object-types.js';

/**
 * The parts of an object request checked against the type catalog but without the database:
 * the business class or soft type of a new object, its CAD subtype, its attributes (typed where
 * the catalog declares them), and the letters of versions.
 */

/**
 * `type` of a new versioned object: a business class (wt.doc.WTDocument, wt.epm.EPMDocument,
 * wt.part.WTPart) or another versioned class of the catalog (wt.change2.WTChangeOrder2 …, or a
 * class of storage iteration a dataset declared), a soft type of one of them the catalog knows or
 * users declared (`com.acme.SoftwarePart`), or the same written as a type identifier
 * (`WCTYPE|wt.part.WTPart|com.acme.SoftwarePart`).
 */
export function resolveObjectType(catalog: Catalog, text: string): ObjectType {
  const versioned = catalog.concreteClasses('iteration');
  const parts = text.replace(/^WCTYPE\|/, '').split('|');
  const last = parts[parts.length - 1];
  const alone = parts.length === 1 ? versionedType(catalog, last) : null;
  if (alone) return alone;
  const st = catalog.findSoftType(last);
  const base = parts.length > 1 ? parts[0] : (st?.cls ?? null);
  if (st && base !== null && versioned.includes(base) && catalog.isA(st.cls, base) && versioned.includes(st.cls)) {
    return { cls: st.cls, softType: st.name };
  }
  if (st && versioned.includes(st.cls)) {
    throw new BadRequestException(`type: soft type ${st.name} is a type of ${st.cls}, not of ${clip(base ?? '')}`);
  }
  const softTypes = catalog
    .listSoftTypes()
    .filter((s) => versioned.includes(s.cls))
    .map((s) => s.name)
    .sort();
  throw new BadRequestException(
    `type: "${clip(text)}" is neither a concrete class of the catalog that objects are made of (a versioned class ` +
      `such as ${versioned.slice(0, 4).join(', ')} …, or a plain one such as wt.workflow.engine.WfProcess; see ` +
      `GET /reports/api/1.0/catalog) nor a soft type of one (${softTypes.join(', ') || 'none declared'})`,
  );
}

/** `subtype`: required for CAD documents (CADASSEMBLY, CADCOMPONENT, CADDRAWING), refused for others. */
export function checkSubtype(cls: string, subtype: string | undefined): string | null {
  if (cls === OidClass.cadDocument) {
    if (subtype === undefined)
      throw new BadRequestException(`subtype is required for ${cls} (${CAD_SUBTYPES.join(', ')})`);
    if (!(CAD_SUBTYPES as readonly string[]).includes(subtype)) {
      throw new BadRequestException(`subtype must be one of ${CAD_SUBTYPES.join(', ')}`);
    }
    return subtype;
  }
  if (subtype !== undefined) throw new BadRequestException(`subtype is only for ${OidClass.cadDocument}`);
  return null;
}

/** Titles are kept for documents only (as the import does). */
export function checkTitle(cls: string, title: string | null | undefined): void {
  if (title != null && cls !== OidClass.document) {
    throw new BadRequestException(`title is only for ${OidClass.document}`);
  }
}

/**
 * An `attributes` object: names and JSON scalars as the number service checks them (null
 * removes), and the type the catalog declares for a name (the soft type's attributes, or a
 * property the class keeps in the iteration's attributes, such as a part's `view` or `source`).
 */
export function checkObjectAttributes(catalog: Catalog, type: ObjectType, value: unknown): AttributeChange {
  const change = checkAttributes(value);
  const declared = declaredAttributes(catalog, type);
  for (const [name, v] of Object.entries(change)) {
    if (typeof v === 'string' && v.includes('\u0000')) {
      throw new BadRequestException(`attributes.${name} must not contain NUL characters`);
    }
    const t = declared.get(name);
    if (t && v !== null) {
      typedValue(v, t, `attributes.${name}`, (path, message) => {
        throw new BadRequestException(`${path} ${message} (a ${t} of ${type.softType ?? type.cls})`);
      });
    }
  }
  return change;
}

function declaredAttributes(catalog: Catalog, type: ObjectType): Map<string, PropertyType> {
  const out = new Map<string, PropertyType>();
  const cls = catalog.findClass(type.cls);
  if (cls) for (const p of jsonProperties(cls).values()) out.set(p.key, p.type);
  const chain = [];
  for (
    let st = type.softType ? catalog.findSoftType(type.softType) : undefined;
    st;
    st = catalog.findSoftType(st.parent)
  ) {
    chain.push(st);
  }
  // The nearest declaration wins: walk from the root soft type down.
  for (const st of chain.reverse()) for (const [name, a] of st.attributes) out.set(name, a.type);
  return out;
}

/** The version after `version` (A → B, Z → AA, AZ → BA); null past ZZZ, the longest the data takes. */
export function nextVersion(version: string): string | null {
  if (!/^[A-Z]{1,3}$/.test(version)) return null;
  const letters = [...version];
  let i = letters.length - 1;
  while (i >= 0 && letters[i] === 'Z') letters[i--] = 'A';
  if (i < 0) letters.unshift('A');
  else letters[i] = String.fromCharCode(letters[i].charCodeAt(0) + 1);
  return letters.length > 3 ? null : letters.join('');
}

/** `version` of a read: `A` (its latest iteration) or `A.2`. */
export function parseVersionParam(text: string): { version: string; iteration: number | null } {
  const m = /^([A-Z]{1,3})(?:\.([1-9][0-9]{0,8}))?$/.exec(text);
  if (!m)
    throw new BadRequestException(
      `version must be a version letter (A) or version.iteration (A.2), not "${clip(text)}"`,
    );
  return { version: m[1], iteration: m[2] === undefined ? null : Number(m[2]) };
}
