import type { Catalog } from './catalog.js';
import { standardCatalog } from './catalog-load.js';
import { CatalogError } from './catalog-model.js';
import { RootClass } from './standard-classes.js';

export { masterClassOf, OidClass } from './standard-classes.js';

/**
 * Object identifiers: `OR:<class>:<id>`, e.g. `OR:wt.doc.WTDocument:1001`.
 * Parsing is strict: a Java-style class name, a positive decimal id without leading zeros
 * that fits a PostgreSQL integer. Anything else is "not an OID".
 */
export interface Oid {
  cls: string;
  id: number;
}

const OID_RE = /^OR:([A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+):([1-9][0-9]{0,9})$/;
const MAX_ID = 2_147_483_647;

export function parseOid(text: string): Oid | null {
  const m = OID_RE.exec(text);
  if (!m) return null;
  const id = Number(m[2]);
  if (id > MAX_ID) return null;
  return { cls: m[1], id };
}

export function isOid(text: string): boolean {
  return parseOid(text) !== null;
}

export function formatOid(cls: string, id: number | bigint): string {
  return `OR:${cls}:${id}`;
}

/** The standard catalog; none when it is bad (main.ts then refuses the start, with the list of its problems). */
function standard(): Catalog | null {
  try {
    return standardCatalog();
  } catch (e) {
    if (e instanceof CatalogError) return null;
    throw e;
  }
}

const std = standard();

/** Classes of business objects holding files and numbered by rules: documents, CAD documents, parts. */
export const BUSINESS_CLASSES = std?.concreteBelow(RootClass.revisionControlled) ?? [];
/**
 * Classes a container's numbering rule may number in the standard catalog: the versioned ones
 * (the business classes, change objects, product instances, manufacturing data …) and the plain
 * ones (views, workflow, organisations …).
 */
export const NUMBERED_CLASSES = std?.numberedClasses() ?? [];
/** Container classes: products, libraries, projects. */
export const CONTAINER_CLASSES = std?.concreteBelow(RootClass.container) ?? [];

/** Whether `cls` is one of BUSINESS_CLASSES. */
export function isBusinessClass(cls: string): boolean {
  return std?.isConcreteBelow(cls, RootClass.revisionControlled) ?? false;
}

/** Whether `cls` is one of CONTAINER_CLASSES. */
export function isContainerClass(cls: string): boolean {
  return std?.isConcreteBelow(cls, RootClass.container) ?? false;
}
