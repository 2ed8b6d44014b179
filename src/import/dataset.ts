/**
 * The `pdm-dataset/1` import format (docs/dataset-format.md): its types, and validateDataset,
 * which checks a document against the format's JSON Schema (dataset-schema.ts) and then what the
 * schema cannot know: the catalog's classes, content roles, names given twice. Messages name the
 * offending record, e.g. `objects[12].files[0]: unknown role "PRIMRY"`.
 */
import type { Catalog } from '../catalog/catalog.js';
import { standardCatalog } from '../catalog/catalog-load.js';
import type { CatalogFile } from '../catalog/catalog-model.js';
import { BUSINESS_CLASSES, isBusinessClass, OidClass } from '../catalog/oid.js';
import { DEFAULT_LIFECYCLE_JSON, parseLifecycle, type Lifecycle } from '../config/lifecycle.js';
import { Base64Error, decodeBase64Strict } from '../files/upload/base64.js';
import { fileNameProblem, guessMimeType } from '../files/file-name.js';
import { compileTemplate } from '../qml/qml-compiler.js';
import { QmlError, QmlProblems } from '../qml/qml-error.js';
import {
  datasetTypes,
  recordMaster,
  recordProps,
  recordRef,
  recordReferences,
  recordSoftType,
  type DatasetLink,
  type DatasetPlainObject,
  type DatasetRef,
  type JsonScalar,
} from './dataset-catalog.js';
import { checkShape, DatasetError, MEMBER_ROLES } from './dataset-schema.js';
import { oneValuePerKey, type DatasetMasterValues, type IdRef } from './dataset-values.js';

export type { DatasetLink, DatasetPlainObject, DatasetRef } from './dataset-catalog.js';
export type { DatasetMasterValues, IdRef } from './dataset-values.js';
export { DatasetError } from './dataset-schema.js';

export const DEFAULT_ROLES = ['PRIMARY', 'SECONDARY'];
const DEFAULT_LIFECYCLE = parseLifecycle(DEFAULT_LIFECYCLE_JSON);

export interface DatasetUser {
  name: string;
  password: string;
  admin: boolean;
  fullName: string | null;
  email: string | null;
  disabled: boolean;
}
export interface DatasetNumbering {
  class: string;
  prefix: string;
  suffix: string;
  width: number;
  next: number;
}
export interface DatasetContainer {
  name: string;
  class: string;
  description: string | null;
  members: Record<string, (typeof MEMBER_ROLES)[number]>;
  numbering: DatasetNumbering[];
}
export interface DatasetWorkspace {
  name: string;
  container: string;
  owner: string;
}
export interface DatasetFile {
  role: string;
  filename: string;
  mimetype: string;
  bytes: Buffer;
}
export interface DatasetUse {
  number: string;
  quantity: number;
  unit: string;
  lineNumber: number | null;
}
export interface DatasetObject {
  /** Where it is in the file (`objects[7]`), for messages. */
  path: string;
  class: string;
  softType: string | null;
  subtype: string | null;
  number: string;
  name: string;
  title: string | null;
  description: string | null;
  container: string;
  version: string;
  iteration: number;
  state: string;
  createdBy: string | null;
  modifiedBy: string | null;
  createdAt: Date | null;
  modifiedAt: Date | null;
  attributes: Record<string, JsonScalar>;
  /** References kept in JSON (a part's view …), resolved by the importer into `attributes`. */
  references: Record<string, DatasetRef>;
  /** Numbers of `attributes` given as references, resolved by the importer. */
  ids: IdRef[];
  /** What the record gives its master (shared by its iterations: a later record wins per key). */
  master: DatasetMasterValues;
  files: DatasetFile[];
  uses: DatasetUse[];
}
export interface DatasetReport {
  name: string;
  container: string;
  description: string | null;
  qml: string;
}
export interface Dataset {
  /** Classes and soft types declared by the dataset (stored in catalog_types). */
  types: CatalogFile | null;
  /** The catalog the dataset was checked with: the one in force plus its types. */
  catalog: Catalog;
  roles: string[];
  users: DatasetUser[];
  containers: DatasetContainer[];
  workspaces: DatasetWorkspace[];
  objects: DatasetObject[];
  /** Objects of plain catalog classes (views, workflow processes, organisations …). */
  plainObjects: DatasetPlainObject[];
  links: DatasetLink[];
  reports: DatasetReport[];
}

type Json = Record<string, unknown>;
/** A checked record's fields, as the schema lets them be. */
type Fields = Record<string, string | number | boolean | null | undefined>;

function fail(path: string, message: string): never {
  throw new DatasetError(`${path}: ${message}`);
}

/** The records of a list, or none. */
const items = (v: unknown): Json[] => (v ?? []) as Json[];
const orNull = (v: unknown): string | null => (v ?? null) as string | null;
const timestamp = (v: unknown): Date | null => (typeof v === 'string' ? new Date(v) : null);

function toFile(o: Json, path: string, roles: Set<string>): DatasetFile {
  const role = o.role as string;
  if (!roles.has(role)) fail(path, `unknown role "${role}"`);
  const filename = (o.filename as string).normalize('NFC');
  const problem = fileNameProblem(filename);
  if (problem) fail(`${path}.filename`, problem);
  let bytes: Buffer;
  if (typeof o.text === 'string') bytes = Buffer.from(o.text, 'utf8');
  else {
    try {
      bytes = decodeBase64Strict(o.base64 as string);
    } catch (e) {
      if (!(e instanceof Base64Error)) throw e;
      fail(`${path}.base64`, e.message);
    }
  }
  return { role, filename, mimetype: orNull(o.mimetype) ?? guessMimeType(filename), bytes };
}

function toObject(o: Json, index: number, roles: Set<string>, catalog: Catalog, lifecycle: Lifecycle): DatasetObject {
  checkShape(o, 'versionedObject', ['objects', index]);
  const path = `objects[${index}]`;
  const f = o as Fields;
  const cls = f.class as string;
  const def = catalog.findClass(cls)!;
  const subtype = orNull(f.subtype);
  const files = items(o.files).map((file, i) => toFile(file, `${path}.files[${i}]`, roles));
  const seen = new Set<string>();
  files.forEach((file, i) => {
    if (seen.has(file.filename)) fail(`${path}.files[${i}]`, `file name "${file.filename}" given twice`);
    seen.add(file.filename);
  });
  const uses = items(o.uses).map((u): DatasetUse => ({
    number: u.number as string,
    quantity: (u.quantity ?? 1) as number,
    unit: orNull(u.unit) ?? 'ea',
    lineNumber: (u.lineNumber ?? null) as number | null,
  }));
  if (uses.length && !(cls === OidClass.part || subtype === 'CADASSEMBLY')) {
    fail(`${path}.uses`, 'only parts and CAD assemblies use other objects');
  }
  // Documents, CAD documents and parts follow the lifecycle; other classes name their own states.
  const state = orNull(f.state) ?? lifecycle.initial;
  if (isBusinessClass(cls) && !lifecycle.transitions.has(state)) {
    fail(`${path}.state`, `unknown state "${state}" (expected ${[...lifecycle.transitions.keys()].join(', ')})`);
  }
  const softType = recordSoftType(o, def, catalog, path, fail);
  const ids: IdRef[] = [];
  const master = recordMaster(o.master, def, catalog, `${path}.master`, fail);
  // Custom attributes (untyped, as ever for versioned records) and the class's JSON properties
  // share the iteration's JSON.
  const attributes = {
    ...recordProps({ attributes: o.attributes }, def, null, catalog, path, fail, ids),
    ...recordProps({ properties: o.properties }, def, null, catalog, path, fail, ids, master),
  };
  const references = recordReferences(o, def, catalog, path, fail);
  oneValuePerKey(def, attributes, ids, references, path, fail);
  oneValuePerKey(catalog.findClass(def.master!)!, master.props, master.ids, master.references, `${path}.master`, fail);
  return {
    path,
    class: cls,
    softType,
    subtype,
    number: f.number as string,
    name: f.name as string,
    title: orNull(f.title),
    description: orNull(f.description),
    container: f.container as string,
    version: orNull(f.version) ?? 'A',
    iteration: (f.iteration ?? 1) as number,
    state,
    createdBy: orNull(f.createdBy),
    modifiedBy: orNull(f.modifiedBy),
    createdAt: timestamp(f.createdAt),
    modifiedAt: timestamp(f.modifiedAt),
    attributes,
    references,
    ids,
    master,
    files,
    uses,
  };
}

function toPlainObject(o: Json, index: number, catalog: Catalog): DatasetPlainObject {
  checkShape(o, 'plainObject', ['objects', index]);
  const path = `objects[${index}]`;
  const f = o as Fields;
  const cls = catalog.findClass(f.class as string)!;
  const softType = recordSoftType(o, cls, catalog, path, fail);
  const ids: IdRef[] = [];
  const props = recordProps(o, cls, softType, catalog, path, fail, ids);
  const references = recordReferences(o, cls, catalog, path, fail);
  oneValuePerKey(cls, props, ids, references, path, fail);
  return {
    path,
    class: cls.name,
    softType,
    number: orNull(f.number),
    name: orNull(f.name),
    state: orNull(f.state),
    container: orNull(f.container),
    createdBy: orNull(f.createdBy),
    modifiedBy: orNull(f.modifiedBy),
    createdAt: timestamp(f.createdAt),
    modifiedAt: timestamp(f.modifiedAt),
    props,
    ids,
    references,
  };
}

function toLink(o: Json, path: string, catalog: Catalog): DatasetLink {
  const name = o.class as string;
  const cls = catalog.findClass(name);
  if (!cls || !cls.roles || cls.storage !== 'link' || cls.abstract) {
    const why = !cls
      ? 'unknown class'
      : cls.storage === 'link'
        ? 'an abstract class'
        : 'not a link class stored in links';
    fail(`${path}.class`, `${name}: ${why} (part structure comes from "uses", files from "files")`);
  }
  const softType = recordSoftType(o, cls!, catalog, path, fail);
  const ids: IdRef[] = [];
  return {
    class: cls!.name,
    softType,
    a: recordRef(o.a, cls!.roles!.a, catalog, `${path}.a`, fail),
    b: recordRef(o.b, cls!.roles!.b, catalog, `${path}.b`, fail),
    container: orNull(o.container),
    props: recordProps(o, cls!, softType, catalog, path, fail, ids),
    ids,
  };
}

function toContainer(o: Json, p: string): DatasetContainer {
  const numbering = items(o.numbering).map((n, j): DatasetNumbering => {
    const width = n.width as number;
    const next = (n.next ?? 1) as number;
    if (String(next).length > width) fail(`${p}.numbering[${j}].next`, `${next} does not fit in ${width} digits`);
    return { class: n.class as string, prefix: orNull(n.prefix) ?? '', suffix: orNull(n.suffix) ?? '', width, next };
  });
  const classes = new Set<string>();
  numbering.forEach((n, j) => {
    if (classes.has(n.class)) fail(`${p}.numbering[${j}]`, `a second rule for ${n.class}`);
    classes.add(n.class);
  });
  return {
    name: o.name as string,
    class: o.class as string,
    description: orNull(o.description),
    members: (o.members ?? {}) as DatasetContainer['members'],
    numbering,
  };
}

/**
 * Checks a dataset: its shape against the schema, then its classes, roles and names, and the
 * states of documents, parts and CAD documents against the lifecycle (OBJECTS_LIFECYCLE; the
 * default one unless given).
 */
export function validateDataset(
  input: unknown,
  base: Catalog = standardCatalog(),
  lifecycle: Lifecycle = DEFAULT_LIFECYCLE,
): Dataset {
  checkShape(input, 'dataset');
  const root = input as Json;
  const { file: types, catalog } = datasetTypes(root.types, base);
  const roles = (root.roles ?? []) as string[];
  const roleSet = new Set([...DEFAULT_ROLES, ...roles]);
  const users = items(root.users).map((o): DatasetUser => ({
    name: (o.name as string).normalize('NFC'),
    password: o.password as string,
    admin: (o.admin ?? false) as boolean,
    fullName: orNull(o.fullName),
    email: orNull(o.email),
    disabled: (o.disabled ?? false) as boolean,
  }));
  const containers = items(root.containers).map((o, i) => toContainer(o, `containers[${i}]`));
  const workspaces = items(root.workspaces).map((o): DatasetWorkspace => ({
    name: o.name as string,
    container: o.container as string,
    owner: o.owner as string,
  }));
  const objects: DatasetObject[] = [];
  const plainObjects: DatasetPlainObject[] = [];
  items(root.objects).forEach((o, i) => {
    const name = o.class as string;
    const cls = catalog.findClass(name);
    if (cls && !cls.abstract && cls.storage === 'object') plainObjects.push(toPlainObject(o, i, catalog));
    else if (cls && !cls.abstract && cls.storage === 'iteration') {
      objects.push(toObject(o, i, roleSet, catalog, lifecycle));
    } else {
      const why = !cls
        ? 'unknown class'
        : cls.abstract
          ? 'an abstract class'
          : `storage ${cls.storage} (not an object)`;
      fail(
        `objects[${i}].class`,
        `${name}: ${why}; objects are versioned classes (${BUSINESS_CLASSES.join(', ')} …) or plain ones (views, workflow processes …)`,
      );
    }
  });
  const links = items(root.links).map((o, i) => toLink(o, `links[${i}]`, catalog));
  const reports = items(root.reports).map((o, i): DatasetReport => ({
    name: o.name as string,
    container: o.container as string,
    description: orNull(o.description),
    qml: checkedQml(o.qml as string, `reports[${i}].qml`, catalog),
  }));

  uniqueBy(users, (u) => u.name, 'users', 'user name');
  uniqueBy(containers, (c) => c.name, 'containers', 'container name');
  uniqueBy(workspaces, (w) => w.name, 'workspaces', 'workspace name');
  uniqueBy(reports, (r) => r.name, 'reports', 'report name');
  uniqueBy(objects, (o) => `${o.class} ${o.number} ${o.version}.${o.iteration}`, 'objects', 'object iteration');
  uniqueBy(
    plainObjects.filter((o) => o.number !== null),
    (o) => `${o.class} ${o.number}`,
    'objects',
    'object number',
  );
  uniqueBy(links, (l) => `${l.class} ${JSON.stringify(l.a)} ${JSON.stringify(l.b)}`, 'links', 'link');
  return { types, catalog, roles, users, containers, workspaces, objects, plainObjects, links, reports };
}

function uniqueBy<T>(items: T[], key: (t: T) => string, path: string, what: string): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) fail(`${path}[${i}]`, `${what} "${k}" appears twice`);
    seen.add(k);
  });
}

/**
 * A template is compiled (with the default limits) before it is stored, as PUT /reports does:
 * one that is not well-formed or names unknown things would only fail when it is run.
 */
function checkedQml(qml: string, path: string, catalog: Catalog): string {
  try {
    compileTemplate(qml, { catalog });
  } catch (e) {
    if (e instanceof QmlProblems) {
      throw new DatasetError(`${path}: ${e.problems.map((p) => `${p.path}: ${p.reason}`).join('; ')}`);
    }
    if (e instanceof QmlError) throw new DatasetError(`${path}: ${e.message}`);
    throw e;
  }
  return qml;
}
