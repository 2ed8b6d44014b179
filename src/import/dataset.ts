/**
 * The `pdm-dataset/1` import format (docs/dataset-format.md): types and a strict validator
 * whose messages name the offending record, e.g. `objects[12].files[0]: unknown role "PRIMRY"`.
 */
import type { Catalog } from '../catalog/catalog.js';
import { standardCatalog } from '../catalog/catalog-load.js';
import type { CatalogFile } from '../catalog/catalog-model.js';
import { BUSINESS_CLASSES, CONTAINER_CLASSES } from '../common/oid.js';
import { Base64Error, decodeBase64Strict } from '../files/base64.js';
import { fileNameProblem, guessMimeType } from '../files/file-name.js';
import { compileTemplate } from '../qml/qml-compiler.js';
import { QmlError, QmlProblems } from '../qml/qml-error.js';
import {
  datasetTypes,
  recordProps,
  recordRef,
  recordReferences,
  recordSoftType,
  type DatasetLink,
  type DatasetPlainObject,
  type DatasetRef,
  type JsonScalar,
} from './dataset-catalog.js';

export type { DatasetLink, DatasetPlainObject, DatasetRef } from './dataset-catalog.js';

export const MEMBER_ROLES = ['reader', 'author', 'manager'] as const;
export const STATES = ['INWORK', 'UNDERREVIEW', 'RELEASED', 'OBSOLETE'] as const;
export const CAD_SUBTYPES = ['CADASSEMBLY', 'CADCOMPONENT', 'CADDRAWING'] as const;
export const DEFAULT_ROLES = ['PRIMARY', 'SECONDARY'];

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

export class DatasetError extends Error {}

type Json = Record<string, unknown>;

function fail(path: string, message: string): never {
  throw new DatasetError(`${path}: ${message}`);
}

function obj(v: unknown, path: string, allowed: string[]): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'must be an object');
  for (const k of Object.keys(v)) if (!allowed.includes(k)) fail(path, `unknown field "${k}"`);
  return v as Json;
}

function arr(v: unknown, path: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(path, 'must be an array');
  return v;
}

function str(o: Json, key: string, path: string, opts: { optional?: boolean; max?: number } = {}): string | null {
  const v = o[key];
  if (v === undefined || v === null) {
    if (opts.optional) return null;
    fail(`${path}.${key}`, 'is required');
  }
  if (typeof v !== 'string') fail(`${path}.${key}`, 'must be a string');
  if (!opts.optional && v.trim() === '') fail(`${path}.${key}`, 'must not be empty');
  if (v.length > (opts.max ?? 10_000)) fail(`${path}.${key}`, `is longer than ${opts.max ?? 10_000} characters`);
  return v;
}

function reqStr(o: Json, key: string, path: string, max = 255): string {
  return str(o, key, path, { max }) as string;
}

function int(o: Json, key: string, path: string, min: number, max: number, fallback?: number): number {
  const v = o[key] ?? fallback;
  if (v === undefined) fail(`${path}.${key}`, 'is required');
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    fail(`${path}.${key}`, `must be an integer from ${min} to ${max}`);
  }
  return v;
}

function bool(o: Json, key: string, path: string): boolean {
  const v = o[key] ?? false;
  if (typeof v !== 'boolean') fail(`${path}.${key}`, 'must be true or false');
  return v;
}

function oneOf<T extends string>(v: string, values: readonly T[], path: string, what: string): T {
  if (!values.includes(v as T)) fail(path, `unknown ${what} "${v}" (expected ${values.join(', ')})`);
  return v as T;
}

function timestamp(o: Json, key: string, path: string): Date | null {
  const v = str(o, key, path, { optional: true });
  if (v === null) return null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) || Number.isNaN(Date.parse(v))) {
    fail(`${path}.${key}`, `"${v}" is not an ISO-8601 timestamp with a time zone`);
  }
  return new Date(v);
}

function validateFile(v: unknown, path: string, roles: Set<string>): DatasetFile {
  const o = obj(v, path, ['role', 'filename', 'mimetype', 'text', 'base64']);
  const role = reqStr(o, 'role', path, 64);
  if (!roles.has(role)) fail(`${path}`, `unknown role "${role}"`);
  const filename = reqStr(o, 'filename', path).normalize('NFC');
  const problem = fileNameProblem(filename);
  if (problem) fail(`${path}.filename`, problem);
  const mimetype = str(o, 'mimetype', path, { optional: true, max: 255 }) ?? guessMimeType(filename);
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(mimetype)) fail(`${path}.mimetype`, `"${mimetype}" is not a media type`);
  const hasText = o.text !== undefined;
  const hasBase64 = o.base64 !== undefined;
  if (hasText === hasBase64) fail(path, 'give exactly one of "text" or "base64"');
  let bytes: Buffer;
  if (hasText) {
    if (typeof o.text !== 'string') fail(`${path}.text`, 'must be a string');
    bytes = Buffer.from(o.text, 'utf8');
  } else {
    if (typeof o.base64 !== 'string') fail(`${path}.base64`, 'must be a string');
    try {
      bytes = decodeBase64Strict(o.base64);
    } catch (e) {
      if (!(e instanceof Base64Error)) throw e;
      fail(`${path}.base64`, e.message);
    }
  }
  return { role, filename, mimetype, bytes };
}

function validateObject(v: unknown, path: string, roles: Set<string>, catalog: Catalog): DatasetObject {
  const o = obj(v, path, [
    'class',
    'softType',
    'references',
    'properties',
    'subtype',
    'number',
    'name',
    'title',
    'description',
    'container',
    'version',
    'iteration',
    'state',
    'createdBy',
    'modifiedBy',
    'createdAt',
    'modifiedAt',
    'attributes',
    'files',
    'uses',
  ]);
  const cls = reqStr(o, 'class', path);
  const def = catalog.findClass(cls)!;
  const subtype = str(o, 'subtype', path, { optional: true });
  if (cls === 'wt.epm.EPMDocument') {
    if (subtype === null) fail(`${path}.subtype`, 'is required for wt.epm.EPMDocument');
    oneOf(subtype, CAD_SUBTYPES, `${path}.subtype`, 'subtype');
  } else if (subtype !== null) fail(`${path}.subtype`, `is only for wt.epm.EPMDocument`);
  const title = str(o, 'title', path, { optional: true, max: 1000 });
  if (title !== null && cls !== 'wt.doc.WTDocument') fail(`${path}.title`, 'is only for wt.doc.WTDocument');
  const version = str(o, 'version', path, { optional: true, max: 10 }) ?? 'A';
  if (!/^[A-Z]{1,3}$/.test(version)) fail(`${path}.version`, `"${version}" is not a version letter (A, B, … AA)`);
  const attributes: DatasetObject['attributes'] = {};
  if (o.attributes !== undefined) {
    if (typeof o.attributes !== 'object' || o.attributes === null || Array.isArray(o.attributes)) {
      fail(`${path}.attributes`, 'must be an object');
    }
    for (const [k, a] of Object.entries(o.attributes)) {
      if (!/^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/.test(k)) fail(`${path}.attributes`, `"${k}" is not an attribute name`);
      if (a !== null && !['string', 'number', 'boolean'].includes(typeof a)) {
        fail(`${path}.attributes.${k}`, 'must be a string, number, boolean or null');
      }
      attributes[k] = a as string | number | boolean | null;
    }
  }
  const files = arr(o.files, `${path}.files`).map((f, i) => validateFile(f, `${path}.files[${i}]`, roles));
  const seen = new Set<string>();
  files.forEach((f, i) => {
    if (seen.has(f.filename)) fail(`${path}.files[${i}]`, `file name "${f.filename}" given twice`);
    seen.add(f.filename);
  });
  const uses = arr(o.uses, `${path}.uses`).map((u, i): DatasetUse => {
    const p = `${path}.uses[${i}]`;
    const uo = obj(u, p, ['number', 'quantity', 'unit', 'lineNumber']);
    const quantity = uo.quantity ?? 1;
    if (typeof quantity !== 'number' || !Number.isFinite(quantity) || quantity <= 0) {
      fail(`${p}.quantity`, 'must be a positive number');
    }
    const lineNumber =
      uo.lineNumber === undefined || uo.lineNumber === null ? null : int(uo, 'lineNumber', p, 0, 2 ** 31 - 1);
    return {
      number: reqStr(uo, 'number', p),
      quantity,
      unit: str(uo, 'unit', p, { optional: true, max: 32 }) ?? 'ea',
      lineNumber,
    };
  });
  if (uses.length && !(cls === 'wt.part.WTPart' || subtype === 'CADASSEMBLY')) {
    fail(`${path}.uses`, 'only parts and CAD assemblies use other objects');
  }
  return {
    class: cls,
    softType: recordSoftType(o, def, catalog, path, fail),
    subtype,
    number: reqStr(o, 'number', path),
    name: reqStr(o, 'name', path, 1000),
    title,
    description: str(o, 'description', path, { optional: true }),
    container: reqStr(o, 'container', path),
    version,
    iteration: int(o, 'iteration', path, 1, 1_000_000, 1),
    // Documents, CAD documents and parts follow the standard life cycle; other classes name their own states.
    state: BUSINESS_CLASSES.includes(cls)
      ? oneOf(str(o, 'state', path, { optional: true }) ?? 'INWORK', STATES, `${path}.state`, 'state')
      : (str(o, 'state', path, { optional: true, max: 64 }) ?? 'INWORK'),
    createdBy: str(o, 'createdBy', path, { optional: true }),
    modifiedBy: str(o, 'modifiedBy', path, { optional: true }),
    createdAt: timestamp(o, 'createdAt', path),
    modifiedAt: timestamp(o, 'modifiedAt', path),
    attributes: { ...attributes, ...recordProps({ properties: o.properties }, def, null, catalog, path, fail) },
    references: recordReferences(o, def, catalog, path, fail),
    files,
    uses,
  };
}

const PLAIN_FIELDS = [
  'class',
  'softType',
  'number',
  'name',
  'state',
  'container',
  'createdBy',
  'modifiedBy',
  'createdAt',
  'modifiedAt',
  'properties',
  'attributes',
  'references',
];

function validatePlainObject(o: Json, path: string, catalog: Catalog): DatasetPlainObject {
  const cls = catalog.findClass(reqStr(o, 'class', path))!;
  const softType = recordSoftType(o, cls, catalog, path, fail);
  const number = str(o, 'number', path, { optional: true, max: 255 });
  const name = str(o, 'name', path, { optional: true, max: 1000 });
  if (number === null && name === null) fail(path, 'give a number or a name (references find the object by them)');
  return {
    path,
    class: cls.name,
    softType,
    number,
    name,
    state: str(o, 'state', path, { optional: true, max: 64 }),
    container: str(o, 'container', path, { optional: true }),
    createdBy: str(o, 'createdBy', path, { optional: true }),
    modifiedBy: str(o, 'modifiedBy', path, { optional: true }),
    createdAt: timestamp(o, 'createdAt', path),
    modifiedAt: timestamp(o, 'modifiedAt', path),
    props: recordProps(o, cls, softType, catalog, path, fail),
    references: recordReferences(o, cls, catalog, path, fail),
  };
}

function validateLink(v: unknown, path: string, catalog: Catalog): DatasetLink {
  const o = obj(v, path, ['class', 'softType', 'a', 'b', 'container', 'properties', 'attributes']);
  const name = reqStr(o, 'class', path);
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
  return {
    class: cls!.name,
    softType,
    a: recordRef(o.a, cls!.roles!.a, catalog, `${path}.a`, fail),
    b: recordRef(o.b, cls!.roles!.b, catalog, `${path}.b`, fail),
    container: str(o, 'container', path, { optional: true }),
    props: recordProps(o, cls!, softType, catalog, path, fail),
  };
}

/** Checks the structure of a dataset; references between records are checked by the importer. */
export function validateDataset(input: unknown, base: Catalog = standardCatalog()): Dataset {
  const root = obj(input, '(root)', [
    'format',
    'types',
    'roles',
    'users',
    'containers',
    'workspaces',
    'objects',
    'links',
    'reports',
  ]);
  if (root.format !== 'pdm-dataset/1') fail('format', 'must be "pdm-dataset/1"');
  const { file: types, catalog } = datasetTypes(root.types, base, fail);
  const roles = arr(root.roles, 'roles').map((r, i) => {
    if (typeof r !== 'string' || !/^[A-Z][A-Z0-9_]{0,63}$/.test(r))
      fail(`roles[${i}]`, 'must be an upper-case role name');
    return r;
  });
  const roleSet = new Set([...DEFAULT_ROLES, ...roles]);

  const users = arr(root.users, 'users').map((v, i): DatasetUser => {
    const p = `users[${i}]`;
    const o = obj(v, p, ['name', 'password', 'admin', 'fullName', 'email', 'disabled']);
    const name = reqStr(o, 'name', p, 64).normalize('NFC');
    if (/[:\u0000-\u001f\u007f]/.test(name)) fail(`${p}.name`, 'must not contain ":" or control characters');
    const password = str(o, 'password', p, { max: 1024 }) as string;
    return {
      name,
      password,
      admin: bool(o, 'admin', p),
      fullName: str(o, 'fullName', p, { optional: true, max: 255 }),
      email: str(o, 'email', p, { optional: true, max: 255 }),
      disabled: bool(o, 'disabled', p),
    };
  });

  const containers = arr(root.containers, 'containers').map((v, i): DatasetContainer => {
    const p = `containers[${i}]`;
    const o = obj(v, p, ['name', 'class', 'description', 'members', 'numbering']);
    const members: DatasetContainer['members'] = {};
    if (o.members !== undefined) {
      if (typeof o.members !== 'object' || o.members === null || Array.isArray(o.members)) {
        fail(`${p}.members`, 'must be an object of user name → role');
      }
      for (const [user, role] of Object.entries(o.members)) {
        members[user] = oneOf(String(role), MEMBER_ROLES, `${p}.members.${user}`, 'member role');
      }
    }
    const numbering = arr(o.numbering, `${p}.numbering`).map((n, j): DatasetNumbering => {
      const np = `${p}.numbering[${j}]`;
      const no = obj(n, np, ['class', 'prefix', 'suffix', 'width', 'next']);
      const width = int(no, 'width', np, 1, 18);
      const next = int(no, 'next', np, 0, Number.MAX_SAFE_INTEGER, 1);
      if (String(next).length > width) fail(`${np}.next`, `${next} does not fit in ${width} digits`);
      return {
        class: oneOf(reqStr(no, 'class', np), BUSINESS_CLASSES, `${np}.class`, 'class'),
        prefix: str(no, 'prefix', np, { optional: true, max: 64 }) ?? '',
        suffix: str(no, 'suffix', np, { optional: true, max: 64 }) ?? '',
        width,
        next,
      };
    });
    const classes = new Set<string>();
    numbering.forEach((n, j) => {
      if (classes.has(n.class)) fail(`${p}.numbering[${j}]`, `a second rule for ${n.class}`);
      classes.add(n.class);
    });
    return {
      name: reqStr(o, 'name', p),
      class: oneOf(reqStr(o, 'class', p), CONTAINER_CLASSES, `${p}.class`, 'container class'),
      description: str(o, 'description', p, { optional: true }),
      members,
      numbering,
    };
  });

  const workspaces = arr(root.workspaces, 'workspaces').map((v, i): DatasetWorkspace => {
    const p = `workspaces[${i}]`;
    const o = obj(v, p, ['name', 'container', 'owner']);
    return { name: reqStr(o, 'name', p), container: reqStr(o, 'container', p), owner: reqStr(o, 'owner', p) };
  });

  const objects: DatasetObject[] = [];
  const plainObjects: DatasetPlainObject[] = [];
  arr(root.objects, 'objects').forEach((v, i) => {
    const p = `objects[${i}]`;
    const o = v as Json;
    const name = typeof o === 'object' && o !== null && typeof o.class === 'string' ? o.class : null;
    const cls = name === null ? undefined : catalog.findClass(name);
    if (cls && !cls.abstract && cls.storage === 'object') {
      plainObjects.push(validatePlainObject(obj(v, p, PLAIN_FIELDS), p, catalog));
    } else if (cls && !cls.abstract && cls.storage === 'iteration') {
      objects.push(validateObject(v, p, roleSet, catalog));
    } else if (name !== null) {
      const why = !cls
        ? 'unknown class'
        : cls.abstract
          ? 'an abstract class'
          : `storage ${cls.storage} (not an object)`;
      fail(
        `${p}.class`,
        `${name}: ${why}; objects are versioned classes (${BUSINESS_CLASSES.join(', ')} …) or plain ones (views, workflow processes …)`,
      );
    } else validateObject(v, p, roleSet, catalog);
  });
  const links = arr(root.links, 'links').map((v, i) => validateLink(v, `links[${i}]`, catalog));

  const reports = arr(root.reports, 'reports').map((v, i): DatasetReport => {
    const p = `reports[${i}]`;
    const o = obj(v, p, ['name', 'container', 'description', 'qml']);
    return {
      name: reqStr(o, 'name', p),
      container: reqStr(o, 'container', p),
      description: str(o, 'description', p, { optional: true }),
      qml: checkedQml(str(o, 'qml', p, { max: 1_000_000 }) as string, `${p}.qml`, catalog),
    };
  });

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
