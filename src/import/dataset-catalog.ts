/**
 * The catalog parts of a dataset (docs/dataset-format.md): `types` (classes, interfaces and soft
 * types users declare, extensions of standard classes), objects of plain catalog classes (stored
 * in `objects`), and `links` of any link class (stored in `links`). References between records
 * are resolved by the importer.
 */
import { Catalog } from '../catalog/catalog.js';
import { checkUserTypes } from '../catalog/catalog-load.js';
import { CatalogError, type CatalogClass, type CatalogFile, type PropertyType } from '../catalog/catalog-model.js';
import {
  jsonProperties,
  masterJsonProperties,
  typedValue,
  type Fail,
  type JsonProperty,
  type JsonScalar,
} from '../catalog/property-values.js';
import { DatasetError } from './dataset-schema.js';
import { ATTRIBUTE_VALUE, idRef, type DatasetMasterValues, type IdRef } from './dataset-values.js';

export type { JsonScalar } from '../catalog/property-values.js';

/** Another record: its number (or name: users, containers, objects without number), optionally of a subclass. */
export interface DatasetRef {
  class: string | null;
  key: string;
}

export interface DatasetPlainObject {
  /** Where it is in the file (`objects[7]`), for messages. */
  path: string;
  class: string;
  softType: string | null;
  number: string | null;
  name: string | null;
  state: string | null;
  container: string | null;
  createdBy: string | null;
  modifiedBy: string | null;
  createdAt: Date | null;
  modifiedAt: Date | null;
  /** Declared JSON properties and custom attributes: stored together in `props`. */
  props: Record<string, JsonScalar>;
  /** Numbers of `props` given as references: resolved by the importer. */
  ids: IdRef[];
  references: Record<string, DatasetRef>;
}

export interface DatasetLink {
  class: string;
  softType: string | null;
  a: DatasetRef;
  b: DatasetRef;
  container: string | null;
  props: Record<string, JsonScalar>;
  ids: IdRef[];
}

type Json = Record<string, unknown>;

/** The dataset's types checked against the catalog they extend; the catalog with them. */
export function datasetTypes(types: unknown, base: Catalog): { file: CatalogFile | null; catalog: Catalog } {
  if (types === undefined) return { file: null, catalog: base };
  try {
    return {
      file: types as CatalogFile,
      catalog: checkUserTypes(withoutRedeclared(base, types), types, 'types', 'dataset'),
    };
  } catch (e) {
    // Each problem says where it is (`types: classes[0] (…)`, `types.extensions.0: …`).
    if (e instanceof CatalogError) throw new DatasetError(e.problems.map((p) => `${p.where}: ${p.message}`).join('; '));
    throw e;
  }
}

/** The catalog without the user-declared types the dataset declares again (it replaces them). */
function withoutRedeclared(base: Catalog, types: unknown): Catalog {
  const t = (typeof types === 'object' && types !== null ? types : {}) as CatalogFile;
  const names = new Set([
    ...(Array.isArray(t.classes) ? t.classes : []).map((c) => c?.name),
    ...(Array.isArray(t.interfaces) ? t.interfaces : []).map((c) => c?.name),
    ...(Array.isArray(t.softTypes) ? t.softTypes : []).map((c) => c?.name),
  ]);
  if (!base.sources.some((s) => s.user)) return base;
  // Extensions are kept: a later one adds to them (an entry given again must be the same).
  const sources = base.sources.map((src) =>
    src.user
      ? {
          ...src,
          file: {
            ...src.file,
            classes: (src.file.classes ?? []).filter((c) => !names.has(c.name)),
            interfaces: (src.file.interfaces ?? []).filter((c) => !names.has(c.name)),
            softTypes: (src.file.softTypes ?? []).filter((c) => !names.has(c.name)),
          },
        }
      : src,
  );
  return new Catalog(sources, base.version);
}

/**
 * `properties` (declared JSON properties, typed) and `attributes` (custom attributes) of a record,
 * by the JSON key that keeps them. A number given as a reference (`{ "ref": … }`, see
 * dataset-values.ts) goes to `ids`, resolved by the importer. With `onMaster`, the properties the
 * class keeps on its master (`via: master`) are accepted too and go there.
 */
export function recordProps(
  o: Json,
  cls: CatalogClass,
  softType: string | null,
  catalog: Catalog,
  path: string,
  fail: Fail,
  ids: IdRef[] = [],
  onMaster?: { props: Record<string, JsonScalar>; ids: IdRef[] },
) {
  const props: Record<string, JsonScalar> = {};
  const declared = jsonProperties(cls);
  const masterSide = onMaster ? masterJsonProperties(cls) : new Map<string, JsonProperty>();
  for (const [k, v] of Object.entries(section(o.properties, `${path}.properties`, fail))) {
    const here = declared.get(k);
    const p = here ?? masterSide.get(k);
    if (!p) {
      const known = [...declared.keys(), ...masterSide.keys()].join(', ') || 'none';
      fail(`${path}.properties.${k}`, `is not a property of ${cls.name} kept in JSON (its JSON properties: ${known})`);
    }
    const to = here ? { props, ids } : onMaster!;
    if (!here && (p!.key in to.props || to.ids.some((i) => i.key === p!.key))) {
      fail(`${path}.properties.${k}`, `is kept on the master, and "master" gives that value too; give one of them`);
    }
    // The class whose JSON keeps the value: the master's for `via: master` properties.
    const owner = here ? cls : catalog.findClass(cls.master!)!;
    const id = idRef(v, p!.key, p!.type, owner, catalog, `${path}.properties.${k}`, fail);
    if (id) to.ids.push(id);
    else to.props[p!.key] = typedValue(v, p!.type, `${path}.properties.${k}`, fail);
  }
  for (const [k, v] of Object.entries(section(o.attributes, `${path}.attributes`, fail))) {
    if (!/^[A-Za-z_][\w.-]{0,99}$/.test(k)) fail(`${path}.attributes`, `"${k}" is not an attribute name`);
    const type = softType ? attributeType(catalog, softType, k) : null;
    const id = idRef(v, k, type ?? 'long', cls, catalog, `${path}.attributes.${k}`, fail);
    if (id) ids.push(id);
    else if (type) props[k] = typedValue(v, type, `${path}.attributes.${k}`, fail);
    else if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) props[k] = v as JsonScalar;
    else fail(`${path}.attributes.${k}`, ATTRIBUTE_VALUE);
  }
  return props;
}

function attributeType(catalog: Catalog, softType: string, name: string): PropertyType | null {
  for (let st = catalog.findSoftType(softType); st; st = catalog.findSoftType(st.parent)) {
    const a = st.attributes.get(name);
    if (a) return a.type;
  }
  return null;
}

function section(v: unknown, path: string, fail: Fail): Json {
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'must be an object');
  return v as Json;
}

/** A soft type given for a record: declared, and a type of the record's class (or below it). */
export function recordSoftType(o: Json, cls: CatalogClass, catalog: Catalog, path: string, fail: Fail): string | null {
  const v = o.softType;
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return fail(`${path}.softType`, 'must be a string');
  const st = catalog.findSoftType(v);
  if (!st) return fail(`${path}.softType`, `soft type ${v} is not declared (declare it in "types".softTypes)`);
  if (!catalog.isA(st.cls, cls.name) && !catalog.isA(cls.name, st.cls)) {
    fail(`${path}.softType`, `soft type ${v} is a type of ${st.cls}, not of ${cls.name}`);
  }
  return v;
}

/** A reference: `"<number or name>"` or `{ "class": "<class>", "number": "<number or name>" }`. */
export function recordRef(v: unknown, target: string, catalog: Catalog, path: string, fail: Fail): DatasetRef {
  if (typeof v === 'string' && v.trim() !== '') return { class: null, key: v };
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Json;
    for (const k of Object.keys(o)) if (k !== 'class' && k !== 'number') fail(path, `unknown field "${k}"`);
    if (typeof o.class !== 'string' || typeof o.number !== 'string' || o.number.trim() === '') {
      fail(path, 'a reference is a number (or name), or { "class": …, "number": … }');
    }
    const cls = catalog.findClass(o.class as string);
    if (!cls) fail(`${path}.class`, `unknown class ${String(o.class)}`);
    if (!catalog.isA(cls!.name, target)) fail(`${path}.class`, `${cls!.name} is not a ${target}`);
    return { class: cls!.name, key: o.number as string };
  }
  return fail(path, 'a reference is a number (or name), or { "class": …, "number": … }');
}

/** The `references` of a record: each a reference the class keeps in JSON. */
export function recordReferences(o: Json, cls: CatalogClass, catalog: Catalog, path: string, fail: Fail) {
  const out: Record<string, DatasetRef> = {};
  for (const [name, v] of Object.entries(section(o.references, `${path}.references`, fail))) {
    const ref = cls.references.get(name);
    if (!ref || 'at' in ref.from) {
      const known = [...cls.references.values()].filter((r) => !('at' in r.from)).map((r) => r.name);
      fail(
        `${path}.references.${name}`,
        `is not a reference of ${cls.name} kept in JSON (those: ${known.join(', ') || 'none'})`,
      );
    }
    out[name] = recordRef(v, ref!.target, catalog, `${path}.references.${name}`, fail);
  }
  return out;
}

/** `master` of a versioned record: JSON properties, references and custom attributes of its master class. */
export function recordMaster(
  o: unknown,
  cls: CatalogClass,
  catalog: Catalog,
  path: string,
  fail: Fail,
): DatasetMasterValues {
  const master = catalog.findClass(cls.master!)!;
  const given = (o ?? {}) as Json;
  const ids: IdRef[] = [];
  const props = recordProps(given, master, null, catalog, path, fail, ids);
  return { props, ids, references: recordReferences(given, master, catalog, path, fail) };
}
