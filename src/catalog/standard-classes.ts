/**
 * The class names of the standard catalog (catalog/standard) that the code names itself: the
 * classes of OIDs it forms, the roots its class lists are read below, and how a versioned class
 * names its master class. This is the one place they are spelled: everything else imports them,
 * and questions about classes (which are versioned, which are containers …) go to the catalog in
 * force. catalog.spec.ts checks that each of them is declared in the standard catalog (all but
 * the workspace class: workspaces are kept apart from the catalog, no query reads them).
 */

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
  auditRecord: 'wt.audit.AuditRecord',
} as const;

/** The subtypes a CAD document (OidClass.cadDocument) is one of. */
export const CAD_SUBTYPES = ['CADASSEMBLY', 'CADCOMPONENT', 'CADDRAWING'] as const;

/** Abstract classes of the standard catalog whose subclasses the code lists. */
export const RootClass = {
  /** Business objects holding files and numbered by rules: documents, CAD documents, parts. */
  revisionControlled: 'wt.enterprise.RevisionControlled',
  /** Versioned objects (their iterations). */
  iterated: 'wt.vc.Iterated',
  /** Every persistent object. */
  persistable: 'wt.fc.Persistable',
  /** Containers: products, libraries, projects. */
  container: 'wt.inf.container.WTContainer',
} as const;

/** What a versioned class's name is followed by in its master class's name. */
export const MASTER_SUFFIX = 'Master';

/** The master class of an iteration class: wt.doc.WTDocument → wt.doc.WTDocumentMaster. */
export function masterClassOf(cls: string): string {
  return `${cls}${MASTER_SUFFIX}`;
}
