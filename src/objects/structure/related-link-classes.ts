import type { Catalog } from '../../catalog/catalog.js';
import type { StorageKind } from '../../catalog/storage.js';

/**
 * The link classes a collection follows, each with every class a user declared below it (the
 * catalog's `descendants`): a dataset may declare `com.acme.ApprovalDescribeLink` extending
 * `wt.part.WTPartDescribeLink`, and a collection following documents then follows its links too.
 */
export const USAGE_LINK_ROOTS = {
  structure: 'wt.part.WTPartUsageLink',
  members: 'wt.epm.structure.EPMMemberLink',
} as const;
/** Links of `links` from a part (role A) to the document describing or referenced by it (role B). */
export const DOCUMENT_LINK_ROOTS = [
  'wt.part.WTPartDescribeLink',
  'wt.part.WTPartDocumentLink',
  'wt.part.WTPartReferenceLink',
];
/** Links whose role A is a CAD document (a drawing, a model) built from the part of role B. */
export const DRAWING_LINK_ROOTS = ['wt.epm.build.EPMBuildRule'];
/** A change order's activities (role B), and an activity's affected objects (role B). */
export const INCLUDED_IN_ROOTS = ['wt.change2.IncludedIn2'];
export const AFFECTED_ROOTS = ['wt.change2.AffectedActivityData'];

/**
 * The class names (values of the `class` columns) of each relation. A link's role ids are ids of
 * iterations or of masters, as its class's roles say; a subclass may name other roles than its
 * parent, so each list holds only the classes whose roles are kept where the statement reads
 * them: documents by iteration (`documents`) or by master (`documentMasters`, followed to the
 * latest iteration), everything else by iteration.
 */
export interface RelatedLinkClasses {
  structure: readonly string[];
  members: readonly string[];
  documents: readonly string[];
  documentMasters: readonly string[];
  drawings: readonly string[];
  includedIn: readonly string[];
  affected: readonly string[];
}

const known = new WeakMap<Catalog, RelatedLinkClasses>();

/** The link classes of `catalog` a collection follows (computed once per catalog). */
export function relatedLinkClasses(catalog: Catalog): RelatedLinkClasses {
  let found = known.get(catalog);
  if (!found) {
    const below = (roots: readonly string[], storage: StorageKind, b: StorageKind = 'iteration') =>
      [...new Set(roots.flatMap((root) => catalog.concreteBelow(root, storage)))].filter((name) => {
        const roles = catalog.findClass(name)?.roles;
        return (
          roles !== null &&
          roles !== undefined &&
          catalog.findClass(roles.a)?.storage === 'iteration' &&
          catalog.findClass(roles.b)?.storage === b
        );
      });
    found = {
      structure: below([USAGE_LINK_ROOTS.structure], 'usageLink', 'master'),
      members: below([USAGE_LINK_ROOTS.members], 'usageLink', 'master'),
      documents: below(DOCUMENT_LINK_ROOTS, 'link'),
      documentMasters: below(DOCUMENT_LINK_ROOTS, 'link', 'master'),
      drawings: below(DRAWING_LINK_ROOTS, 'link'),
      includedIn: below(INCLUDED_IN_ROOTS, 'link'),
      affected: below(AFFECTED_ROOTS, 'link'),
    };
    known.set(catalog, found);
  }
  return found;
}
