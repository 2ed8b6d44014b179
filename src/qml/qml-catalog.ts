import {
  listClasses,
  listDerived,
  listLinks,
  listProperties,
  listReferences,
  type ClassDef,
  type SourceKind,
} from './qml-registry.js';
import type { ValueType } from './qml-types.js';

/**
 * The classes of the dialect with their properties and references, as plain data: the input of
 * the generated reference (qml-reference.ts). Built from the registry today; a data catalog can
 * produce the same shape.
 */
export interface DialectCatalog {
  classes: CatalogClass[];
  links: CatalogLink[];
}

export interface CatalogClass {
  name: string;
  about: string;
  /** Column properties (`column` text), in registry order. */
  properties: CatalogProperty[];
  /** Derived properties (`object propertyName` or a `property` chain); any property path works there too. */
  derived: CatalogProperty[];
  /** Whether `WCTYPE|<class>~IBA|<name>` custom attributes can be read. */
  customAttributes: boolean;
  references: { name: string; targets: string[] }[];
}

export interface CatalogProperty {
  path: string;
  type: ValueType;
  about?: string;
}

export interface CatalogLink {
  name: string;
  roleA: string[];
  roleB: string[];
}

const KIND_ABOUT: Record<SourceKind, string> = {
  iteration: 'one row per version.iteration of a business object',
  master: 'one row per business object: number and name, shared by its iterations',
  usageLink: 'a structure link: role A the using iteration, role B the used master',
  content: 'a file of an iteration',
  holderToContent: 'the link of a file to its holder: role A the holder iteration, role B the file',
  container: 'a container (product, library or project)',
  user: 'a user (every user is readable)',
  template: 'a stored report template',
};

const CLASS_ABOUT: Record<string, string> = {
  'wt.doc.WTDocument': 'documents',
  'wt.epm.EPMDocument': 'CAD documents',
  'wt.part.WTPart': 'parts',
  'wt.enterprise.RevisionControlled': 'documents, CAD documents and parts together',
  'wt.part.WTPartUsageLink': 'part structure',
  'wt.epm.structure.EPMMemberLink': 'CAD structure (assembly members)',
  'wt.inf.container.WTContainer': 'products, libraries and projects together',
  'wt.pdmlink.PDMLinkProduct': 'products',
  'wt.inf.library.WTLibrary': 'libraries',
  'wt.projmgmt.admin.Project2': 'projects',
};

const PROPERTY_ABOUT: Record<string, string> = {
  'thePersistInfo.theObjectIdentifier.id': 'the id (the number in the OID)',
  'thePersistInfo.createStamp': 'when it was created',
  'thePersistInfo.modifyStamp': 'when it was last modified',
  number: 'the number (of an iteration: its master’s)',
  name: 'the name (of an iteration: its master’s)',
  title: 'documents only',
  'containerReference.key.id': 'id of its container',
  'masterReference.key.id': 'id of its master',
  'iterationInfo.creator.key.id': 'id of the user who created it',
  'iterationInfo.modifier.key.id': 'id of the user who last modified it',
  'roleAObjectRef.key.id': 'id of role A',
  'roleBObjectRef.key.id': 'id of role B',
  'quantity.amount': 'how many',
  'quantity.unit': 'unit (`ea`)',
  fileName: 'file name',
  mimeType: 'media type',
  fullName: 'full name',
  eMail: 'e-mail address',
  disabled: 'cannot sign in',
  'master>number': 'the number (of the master)',
  'master>name': 'the name (of the master)',
  'state.state': 'lifecycle state: INWORK, UNDERREVIEW, RELEASED, OBSOLETE',
  'versionInfo.identifier.versionId': 'version (`A`)',
  'iterationInfo.identifier.iterationId': 'iteration (`1`)',
  'iterationInfo.latest': 'the latest iteration of its object',
  docType: 'CAD document type (CADASSEMBLY, CADCOMPONENT, CADDRAWING); null for others',
  'lineNumber.value': 'may be null',
  'containerInfo.name': 'same as `name`',
  fileSize: 'bytes',
  role: 'PRIMARY, SECONDARY, THUMBNAIL, DRAWING …',
  versionDisplayIdentifier: '`A`',
  iterationDisplayIdentifier: '`A.1`',
  lifeCycleState: 'the state',
  displayType: '`Document`, `CAD Document` or `Part`',
  folderPath: '`/<container name>`',
  'container.name': 'name of its container',
};

/** The classes, properties, references and link classes of the registry. */
export function registryCatalog(): DialectCatalog {
  const classes = listClasses();
  const namesOf = (kind: SourceKind) => classes.filter((c) => c.kind === kind).map((c) => c.name);
  const prop = ([path, def]: readonly [string, { type: ValueType }]): CatalogProperty => ({
    path,
    type: def.type,
    ...(PROPERTY_ABOUT[path] && { about: PROPERTY_ABOUT[path] }),
  });
  return {
    classes: classes.map((c: ClassDef) => {
      const master = c.kind === 'master' ? CLASS_ABOUT[c.name.replace(/Master$/, '')] : undefined;
      return {
        name: c.name,
        about: CLASS_ABOUT[c.name] ?? (master ? `masters of ${master}` : KIND_ABOUT[c.kind]),
        properties: listProperties(c.kind).map(prop),
        derived: c.kind === 'iteration' ? listDerived().map(prop) : [],
        customAttributes: c.kind === 'iteration',
        references: listReferences(c.kind).map(([name, r]) => ({ name, targets: namesOf(r.target) })),
      };
    }),
    links: listLinks().map(([name, l]) => ({ name, roleA: namesOf(l.roleA), roleB: namesOf(l.roleB) })),
  };
}
