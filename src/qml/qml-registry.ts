import type { ValueType } from './qml-types.js';

/**
 * The one registry of the dialect's classes and properties: which table a class reads, which
 * rows of it (discriminator), what each property path is in SQL and of which type, and which
 * references and link classes join two tables. Nothing outside these tables reaches SQL.
 */

/** How a class is stored: decides the table, its helper joins and its access filter. */
export type SourceKind =
  'iteration' | 'master' | 'usageLink' | 'content' | 'holderToContent' | 'container' | 'user' | 'template';

/** Tables joined to a FROM entry on demand: its master, container and the two users. */
export type Aux = 'self' | 'master' | 'container' | 'creator' | 'modifier';

export interface ClassDef {
  name: string;
  kind: SourceKind;
  /** Values of the `class` column this class covers; null when the table holds one class. */
  discriminator: readonly string[] | null;
}

/** A property: a column of the table or of one of its helper joins, or a computed value. */
export type PropertyDef =
  | { type: ValueType; aux: Aux; column: string }
  | { type: ValueType; computed: 'iterationDisplay' | 'displayType' | 'folderPath' | 'oid' }
  | { type: ValueType; attribute: string };

export const ITERATION_CLASSES = ['wt.doc.WTDocument', 'wt.epm.EPMDocument', 'wt.part.WTPart'] as const;
export const CONTAINER_CLASSES = [
  'wt.pdmlink.PDMLinkProduct',
  'wt.inf.library.WTLibrary',
  'wt.projmgmt.admin.Project2',
] as const;

const CLASSES: ClassDef[] = [
  ...ITERATION_CLASSES.map((c): ClassDef => ({ name: c, kind: 'iteration', discriminator: [c] })),
  { name: 'wt.enterprise.RevisionControlled', kind: 'iteration', discriminator: ITERATION_CLASSES },
  ...ITERATION_CLASSES.map((c): ClassDef => ({ name: `${c}Master`, kind: 'master', discriminator: [c] })),
  { name: 'wt.part.WTPartUsageLink', kind: 'usageLink', discriminator: ['wt.part.WTPartUsageLink'] },
  { name: 'wt.epm.structure.EPMMemberLink', kind: 'usageLink', discriminator: ['wt.epm.structure.EPMMemberLink'] },
  { name: 'wt.content.ApplicationData', kind: 'content', discriminator: null },
  { name: 'wt.content.HolderToContent', kind: 'holderToContent', discriminator: null },
  { name: 'wt.inf.container.WTContainer', kind: 'container', discriminator: CONTAINER_CLASSES },
  ...CONTAINER_CLASSES.map((c): ClassDef => ({ name: c, kind: 'container', discriminator: [c] })),
  { name: 'wt.org.WTUser', kind: 'user', discriminator: null },
  { name: 'wt.query.template.ReportTemplate', kind: 'template', discriminator: null },
];

const CLASS_BY_NAME = new Map(CLASSES.map((c) => [c.name, c]));

export function findClass(name: string): ClassDef | undefined {
  return CLASS_BY_NAME.get(name);
}

const ID: PropertyDef = { type: 'long', aux: 'self', column: 'id' };
const col = (type: ValueType, column: string, aux: Aux = 'self'): PropertyDef => ({ type, aux, column });

const PROPERTIES: Record<SourceKind, Record<string, PropertyDef>> = {
  iteration: {
    'thePersistInfo.theObjectIdentifier.id': ID,
    'thePersistInfo.createStamp': col('timestamp', 'created_at'),
    'thePersistInfo.modifyStamp': col('timestamp', 'modified_at'),
    'master>number': col('string', 'number', 'master'),
    number: col('string', 'number', 'master'),
    'master>name': col('string', 'name', 'master'),
    name: col('string', 'name', 'master'),
    title: col('string', 'title'),
    description: col('string', 'description'),
    'state.state': col('string', 'state'),
    'versionInfo.identifier.versionId': col('string', 'version'),
    'iterationInfo.identifier.iterationId': col('long', 'iteration'),
    'iterationInfo.latest': col('boolean', 'latest'),
    'containerReference.key.id': col('long', 'container_id', 'master'),
    'masterReference.key.id': col('long', 'master_id'),
    'iterationInfo.creator.key.id': col('long', 'created_by'),
    'iterationInfo.modifier.key.id': col('long', 'modified_by'),
    docType: col('string', 'subtype', 'master'),
  },
  master: {
    'thePersistInfo.theObjectIdentifier.id': ID,
    number: col('string', 'number'),
    name: col('string', 'name'),
    'containerReference.key.id': col('long', 'container_id'),
  },
  usageLink: {
    'thePersistInfo.theObjectIdentifier.id': ID,
    'roleAObjectRef.key.id': col('long', 'parent_id'),
    'roleBObjectRef.key.id': col('long', 'child_id'),
    'quantity.amount': col('double', 'quantity'),
    'quantity.unit': col('string', 'unit'),
    'lineNumber.value': col('long', 'line_number'),
  },
  content: {
    'thePersistInfo.theObjectIdentifier.id': ID,
    fileName: col('string', 'file_name'),
    fileSize: col('long', 'size'),
    role: col('string', 'role'),
    mimeType: col('string', 'mime_type'),
    'thePersistInfo.createStamp': col('timestamp', 'created_at'),
    'thePersistInfo.modifyStamp': col('timestamp', 'modified_at'),
  },
  holderToContent: {
    'thePersistInfo.theObjectIdentifier.id': ID,
    'roleAObjectRef.key.id': col('long', 'iteration_id'),
    'roleBObjectRef.key.id': ID,
  },
  container: {
    'thePersistInfo.theObjectIdentifier.id': ID,
    name: col('string', 'name'),
    'containerInfo.name': col('string', 'name'),
    description: col('string', 'description'),
  },
  user: {
    'thePersistInfo.theObjectIdentifier.id': ID,
    name: col('string', 'name'),
    fullName: col('string', 'full_name'),
    eMail: col('string', 'email'),
    disabled: col('boolean', 'disabled'),
  },
  template: {
    'thePersistInfo.theObjectIdentifier.id': ID,
    name: col('string', 'name'),
    description: col('string', 'description'),
    'containerReference.key.id': col('long', 'container_id'),
  },
};

/** Derived properties of iterations (`object propertyName=…` or a `property` chain). */
const DERIVED: Record<string, PropertyDef> = {
  number: col('string', 'number', 'master'),
  name: col('string', 'name', 'master'),
  'container.name': col('string', 'name', 'container'),
  creatorFullName: col('string', 'full_name', 'creator'),
  creatorEMail: col('string', 'email', 'creator'),
  modifierFullName: col('string', 'full_name', 'modifier'),
  modifierEMail: col('string', 'email', 'modifier'),
  versionDisplayIdentifier: col('string', 'version'),
  iterationDisplayIdentifier: { type: 'string', computed: 'iterationDisplay' },
  lifeCycleState: col('string', 'state'),
  displayType: { type: 'string', computed: 'displayType' },
  folderPath: { type: 'string', computed: 'folderPath' },
};

export const OBJECT_ITSELF: PropertyDef = { type: 'oid', computed: 'oid' };

/** Custom attributes: `WCTYPE|<class>[|<soft type>]~IBA|<name>` (or `~MBA|`). */
const ATTRIBUTE_RE =
  /^WCTYPE\|([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(?:\|[\w$.]+)*~(?:IBA|MBA)\|([A-Za-z_][\w.-]{0,99})$/;

/**
 * The column a property path names on a class, or a reason it does not. `typeHint` types
 * custom attributes, which carry no type of their own.
 */
export function resolveProperty(cls: ClassDef, path: string, typeHint: ValueType | null): PropertyDef | string {
  const p = PROPERTIES[cls.kind][path];
  if (p) return p;
  const attr = ATTRIBUTE_RE.exec(path);
  if (attr && cls.kind === 'iteration') {
    const attrClass = findClass(attr[1]);
    if (!attrClass || attrClass.kind !== 'iteration') return `custom attribute of unknown class "${attr[1]}"`;
    const type = typeHint === 'long' || typeHint === 'double' || typeHint === 'boolean' ? typeHint : 'string';
    return { type, attribute: attr[2] };
  }
  return `unknown property "${path}" of ${cls.name}`;
}

/** A derived property (`object`): the iteration list above, else any plain property path. */
export function resolveDerived(cls: ClassDef, path: string): PropertyDef | string {
  if (path === '') return OBJECT_ITSELF;
  if (cls.kind === 'iteration' && DERIVED[path]) return DERIVED[path];
  const p = PROPERTIES[cls.kind][path];
  return p ?? `unknown derived property "${path}" of ${cls.name}`;
}

/** `referenceJoin`: the first table's column that points to the second table's id. */
export interface ReferenceDef {
  from: { aux: Aux; column: string };
  target: SourceKind;
}

const REFERENCES: Partial<Record<SourceKind, Record<string, ReferenceDef>>> = {
  iteration: {
    masterReference: { from: { aux: 'self', column: 'master_id' }, target: 'master' },
    containerReference: { from: { aux: 'master', column: 'container_id' }, target: 'container' },
    'iterationInfo.creator': { from: { aux: 'self', column: 'created_by' }, target: 'user' },
    'iterationInfo.modifier': { from: { aux: 'self', column: 'modified_by' }, target: 'user' },
  },
  master: { containerReference: { from: { aux: 'self', column: 'container_id' }, target: 'container' } },
  template: { containerReference: { from: { aux: 'self', column: 'container_id' }, target: 'container' } },
  usageLink: {
    roleAObjectRef: { from: { aux: 'self', column: 'parent_id' }, target: 'iteration' },
    roleBObjectRef: { from: { aux: 'self', column: 'child_id' }, target: 'master' },
  },
  holderToContent: {
    roleAObjectRef: { from: { aux: 'self', column: 'iteration_id' }, target: 'iteration' },
    roleBObjectRef: { from: { aux: 'self', column: 'id' }, target: 'content' },
  },
};

export function findReference(cls: ClassDef, name: string): ReferenceDef | undefined {
  return REFERENCES[cls.kind]?.[name];
}

/** `linkJoin`: a link class relating role A (first alias) to role B (second alias). */
export interface LinkDef {
  roleA: SourceKind;
  roleB: SourceKind;
  /** usage_links rows of this class, or content items pointing to their holder. */
  via: { usageClass: string } | 'content';
}

const LINKS: Record<string, LinkDef> = {
  'wt.part.WTPartUsageLink': { roleA: 'iteration', roleB: 'master', via: { usageClass: 'wt.part.WTPartUsageLink' } },
  'wt.epm.structure.EPMMemberLink': {
    roleA: 'iteration',
    roleB: 'master',
    via: { usageClass: 'wt.epm.structure.EPMMemberLink' },
  },
  'wt.content.HolderToContent': { roleA: 'iteration', roleB: 'content', via: 'content' },
};

export function findLink(name: string): LinkDef | undefined {
  return LINKS[name];
}

/** Every class, in registry order: for the generated reference (docs/qml-reference.md). */
export function listClasses(): readonly ClassDef[] {
  return CLASSES;
}

/** The property paths of a source kind and their definitions, in registry order. */
export function listProperties(kind: SourceKind): readonly [string, PropertyDef][] {
  return Object.entries(PROPERTIES[kind]);
}

/** The derived properties of iterations (`object`), in registry order. */
export function listDerived(): readonly [string, PropertyDef][] {
  return Object.entries(DERIVED);
}

/** The references of a source kind (`referenceJoin`), in registry order. */
export function listReferences(kind: SourceKind): readonly [string, ReferenceDef][] {
  return Object.entries(REFERENCES[kind] ?? {});
}

/** The link classes (`linkJoin`), in registry order. */
export function listLinks(): readonly [string, LinkDef][] {
  return Object.entries(LINKS);
}
