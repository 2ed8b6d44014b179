import type { Catalog } from '../catalog/catalog.js';
import { standardCatalog } from '../catalog/catalog-load.js';
import { CatalogError } from '../catalog/catalog-model.js';

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

/** Class names used in OIDs. */
export const OidClass = {
  document: 'wt.doc.WTDocument',
  cadDocument: 'wt.epm.EPMDocument',
  part: 'wt.part.WTPart',
  content: 'wt.content.ApplicationData',
  user: 'wt.org.WTUser',
  workspace: 'wt.epm.workspaces.EPMWorkspace',
  report: 'wt.query.template.ReportTemplate',
  partUsageLink: 'wt.part.WTPartUsageLink',
  memberLink: 'wt.epm.structure.EPMMemberLink',
} as const;

/** The master class of an iteration class: wt.doc.WTDocument → wt.doc.WTDocumentMaster. */
export function masterClassOf(cls: string): string {
  return `${cls}Master`;
}

/** The classes of the type catalog below `root` that objects can have (not abstract). */
function concreteBelow(root: string, storage?: string): readonly string[] {
  let catalog: Catalog;
  try {
    catalog = standardCatalog();
  } catch (e) {
    // A bad catalog refuses the start in main.ts, with the list of its problems.
    if (e instanceof CatalogError) return [];
    throw e;
  }
  return (catalog.findClass(root)?.descendants ?? []).filter((c) => {
    const cls = catalog.findClass(c)!;
    return !cls.abstract && (storage === undefined || cls.storage === storage);
  });
}

/** Classes of business objects holding files and numbered by rules: documents, CAD documents, parts. */
export const BUSINESS_CLASSES = concreteBelow('wt.enterprise.RevisionControlled');
/**
 * Versioned classes of the standard catalog (masters and iterations): the business classes, and
 * change objects, product instances, manufacturing data … that /objects creates and changes too.
 */
export const VERSIONED_CLASSES = concreteBelow('wt.vc.Iterated', 'iteration');
/** Classes of plain objects of the standard catalog (table objects: views, workflow, organisations …). */
export const PLAIN_CLASSES = concreteBelow('wt.fc.Persistable', 'object');
/** Classes a container's numbering rule may number: the versioned ones and the plain ones. */
export const NUMBERED_CLASSES = [...VERSIONED_CLASSES, ...PLAIN_CLASSES];
/** Container classes: products, libraries, projects. */
export const CONTAINER_CLASSES = concreteBelow('wt.inf.container.WTContainer');
