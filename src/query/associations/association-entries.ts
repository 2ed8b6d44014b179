import type { Catalog } from '../../catalog/catalog.js';
import { formatOid } from '../../catalog/oid.js';
import type { RelatedEntryDto } from '../dto/association-entries.dto.js';
import type { RelatedRow } from './associations.repository.js';

export type {
  AttributeEntryDto as AttributeEntry,
  FileEntryDto as FileEntry,
  RepresentationEntryDto as RepresentationEntry,
} from '../dto/association-entries.dto.js';

/**
 * Content roles whose files are representations (visualizations) of an object rather than its
 * content: the thumbnail clients show in lists, and the drawing rendered for viewing.
 */
export const REPRESENTATION_ROLES: readonly string[] = ['THUMBNAIL', 'DRAWING'];

/** An entry of `uses`, `usedBy` or `describedBy` from its row. */
export function describeRelated(r: RelatedRow): RelatedEntryDto {
  return {
    oid: r.iteration_id === null ? null : formatOid(r.cls, r.iteration_id),
    type: r.cls,
    subtype: r.subtype,
    number: r.number,
    name: r.name,
    version: r.version,
    iteration: r.iteration,
    state: r.state,
    latest: r.latest,
    container: { oid: formatOid(r.container_class, r.container_id), name: r.container_name },
    link: formatOid(r.link_class, r.link_id),
    quantity: r.quantity,
    unit: r.unit,
    lineNumber: r.line_number === null ? null : Number(r.line_number),
    referenceNumber: r.reference_number,
  };
}

/**
 * The link classes at or below these, from an iteration to a document iteration, are describe
 * links (`describedBy`): the part's, and the process plan's of the manufacturing catalog.
 */
const DESCRIBE_LINK_ROOTS = ['wt.part.WTPartDescribeLink', 'com.ptc.windchill.mpml.MPMDocumentDescribeLink'];

/** The describe link classes of the catalog (DESCRIBE_LINK_ROOTS and the classes below them). */
export function describeLinkClasses(catalog: Catalog): string[] {
  const iteration = (cls: string) => catalog.findClass(cls)?.storage === 'iteration';
  return DESCRIBE_LINK_ROOTS.flatMap((root) => catalog.concreteBelow(root, 'link')).filter((name) => {
    const roles = catalog.findClass(name)?.roles;
    return roles !== undefined && roles !== null && iteration(roles.a) && iteration(roles.b);
  });
}
