import { BadRequestException } from '@nestjs/common';
import type { Catalog } from '../catalog/catalog.js';
import type { Sql } from '../catalog/sql.js';
import { buildQuery, type ReadableScope } from '../qml/qml-compiler.js';
import { fieldsTemplate, IDS_PARAMETER, type FieldsTemplate } from '../qml/qml-fields.js';

/**
 * The `fields` of a query (the original gateway's `fields`/`field`): properties of each item, by
 * the names the type catalog gives them, resolved as a report template's `object propertyName`
 * resolves them (src/qml/qml-fields.ts). A name is known when a versioned class of the catalog
 * has it; an item of a class without it gets null. `attributes.<name>` reads a custom attribute
 * (as text), as in q; a bare name a soft type declares reads that attribute (typed).
 */

export const ATTRIBUTE_FIELD = 'attributes.';
/** Always in an item with fields: its identity. */
export const OID_FIELD = 'oid';
const ATTRIBUTE_NAME = /^[A-Za-z_][\w.-]{0,99}$/;

interface ClassFields {
  /** null: none of the names is a property of the class. */
  fields: FieldsTemplate | null;
  /** The name each selected column (after the id) answers. */
  names: string[];
}

/** Per catalog: resolved paths by class and name, and ClassFields by class and names. */
const caches = new WeakMap<Catalog, { paths: Map<string, string | null>; classes: Map<string, ClassFields | null> }>();
/** Callers choose the names: past this many entries a cache starts over. */
const MAX_CACHED = 10_000;

function cacheOf(catalog: Catalog) {
  let cache = caches.get(catalog);
  if (!cache) caches.set(catalog, (cache = { paths: new Map(), classes: new Map() }));
  return cache;
}

function remember<T>(map: Map<string, T>, key: string, value: T): T {
  if (map.size >= MAX_CACHED) map.clear();
  map.set(key, value);
  return value;
}

/** The property paths a field name may stand for in a class, most specific first. */
function candidatePaths(catalog: Catalog, cls: string, name: string): string[] {
  if (name.startsWith(ATTRIBUTE_FIELD)) {
    const attribute = name.slice(ATTRIBUTE_FIELD.length);
    return ATTRIBUTE_NAME.test(attribute) ? [`WCTYPE|${cls}~IBA|${attribute}`] : [];
  }
  const declaredBy = catalog
    .listSoftTypes()
    .filter((st) => st.attributes.has(name) && catalog.isA(st.cls, cls))
    .map((st) => `WCTYPE|${cls}|${st.name}~IBA|${name}`);
  return [name, ...declaredBy];
}

/** The first of the paths the class resolves, or null. */
function resolvedPath(catalog: Catalog, cls: string, name: string): string | null {
  const { paths } = cacheOf(catalog);
  const key = `${cls}\u0000${name}`;
  const known = paths.get(key);
  if (known !== undefined) return known;
  for (const path of candidatePaths(catalog, cls, name)) {
    const t = fieldsTemplate(catalog, cls, [path]);
    if (typeof t !== 'string' && t.read.length === 1) return remember(paths, key, path);
  }
  return remember(paths, key, null);
}

/** How the items of one class read the fields; cached per catalog, class and fields. */
function classFields(catalog: Catalog, cls: string, names: readonly string[]): ClassFields | null {
  const cache = cacheOf(catalog).classes;
  const key = `${cls}\u0000${names.join('\u0000')}`;
  if (cache.has(key)) return cache.get(key)!;
  const found: { name: string; path: string }[] = [];
  for (const name of names) {
    const path = name === OID_FIELD ? null : resolvedPath(catalog, cls, name);
    if (path !== null) found.push({ name, path });
  }
  let result: ClassFields | null = null;
  if (found.length) {
    const t = fieldsTemplate(
      catalog,
      cls,
      found.map((f) => f.path),
    );
    result = typeof t === 'string' ? null : { fields: t, names: found.map((f) => f.name) };
  } else if (catalog.findClass(cls)) {
    result = { fields: null, names: [] };
  }
  return remember(cache, key, result);
}

/**
 * Checks field names against the catalog: each must be a property (or a declared attribute) of
 * a versioned class, or `attributes.<name>`; a 400 names those that are not.
 */
export function checkFields(catalog: Catalog, names: readonly string[] | null): void {
  if (!names) return;
  const classes = catalog.concreteClasses('iteration');
  const unknown = names.filter(
    (name) => name !== OID_FIELD && !classes.some((cls) => resolvedPath(catalog, cls, name) !== null),
  );
  if (unknown.length) {
    throw new BadRequestException(
      `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => JSON.stringify(n)).join(', ')}: ` +
        "a field is a property of the objects' classes in the type catalog (name, number, state, CADName, " +
        'containerName, location …: GET /reports/api/1.0/catalog/<class> lists them), or attributes.<name> for a custom attribute',
    );
  }
}

/** One statement reading the fields of some objects of one class. */
export interface FieldsRead {
  sql: Sql;
  /** The field name of each column after the id (c2, c3 …). */
  names: string[];
}

/** The caller, as a fields query applies its permissions. */
export interface FieldsCaller {
  user: { id: number; name: string; admin: boolean };
  readable: ReadableScope;
  now: Date;
}

/**
 * The statements reading `names` of the items: one per class among them (classes without any of
 * the names need none), each binding its ids as one list.
 */
export function fieldsReads(
  catalog: Catalog,
  names: readonly string[],
  items: readonly { id: number; cls: string }[],
  caller: FieldsCaller,
): FieldsRead[] {
  const byClass = new Map<string, number[]>();
  for (const item of items) {
    const ids = byClass.get(item.cls);
    if (ids) ids.push(item.id);
    else byClass.set(item.cls, [item.id]);
  }
  const reads: FieldsRead[] = [];
  for (const [cls, ids] of byClass) {
    const f = classFields(catalog, cls, names);
    if (!f?.fields) continue;
    const compiled = buildQuery(f.fields.template, {
      values: { [IDS_PARAMETER]: ids.join(',') },
      user: caller.user,
      readable: caller.readable,
      now: caller.now,
      limit: ids.length,
    });
    reads.push({ sql: compiled.sql, names: f.names });
  }
  return reads;
}

/** A value of a fields row as JSON: integers as numbers while exact, timestamps as ISO text. */
export function fieldValue(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object' && v !== null && 'toNumber' in v && typeof v.toNumber === 'function') {
    return (v as { toNumber(): number }).toNumber();
  }
  return v ?? null;
}
