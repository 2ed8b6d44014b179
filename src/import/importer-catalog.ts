import type { Catalog } from '../catalog/catalog.js';
import type { CatalogFile } from '../catalog/catalog-model.js';
import type { CatalogTypesService } from '../catalog/catalog-types.service.js';
import type { NamedStorage, ObjectsImportService } from '../objects/objects-import.service.js';
import { DatasetError, type Dataset, type DatasetRef, type IdRef } from './dataset.js';

/**
 * Stores the dataset's classes, interfaces and soft types (catalog_types), replacing earlier
 * versions by name, and merges its extensions into those of the same class: an import running
 * at the same time that gives an entry otherwise than one committed meanwhile is refused with
 * the clash, as it would have been had it started later.
 */
export async function storeTypes(catalog: CatalogTypesService, types: CatalogFile | null): Promise<number> {
  if (!types) return 0;
  const rows = [
    ...(types.classes ?? []).map((spec) => ({ name: spec.name, kind: 'class', spec })),
    ...(types.interfaces ?? []).map((spec) => ({ name: spec.name, kind: 'interface', spec })),
    ...(types.softTypes ?? []).map((spec) => ({ name: spec.name, kind: 'softType', spec })),
  ];
  await catalog.putTypes(rows);
  const extensions = types.extensions ?? [];
  for (const [i, ext] of extensions.entries()) {
    const problems = await catalog.putExtension(ext);
    if (problems.length) throw new DatasetError(`types.extensions[${i}] (${ext.class}): ${problems.join('; ')}`);
  }
  return rows.length + extensions.length;
}

/** A resolved reference: the row's id and its OID. */
export interface Resolved {
  id: number;
  oid: string;
}

/**
 * Finds the record a reference names, in the table of its class's storage: an object by number
 * (or name), the latest iteration or the master of a versioned object by number, a user or a
 * container by name. Throws DatasetError naming the record when there is none or several.
 */
export async function resolveRef(
  objects: ObjectsImportService,
  catalog: Catalog,
  target: string,
  ref: DatasetRef,
  path: string,
): Promise<Resolved> {
  const cls = catalog.findClass(ref.class ?? target)!;
  const classes = [...cls.classValues];
  const key = ref.key;
  const storage = cls.storage;
  if (!isNamed(storage)) {
    throw new DatasetError(`${path}: objects of ${cls.name} (storage ${storage}) cannot be referenced here`);
  }
  const rows = await objects.findNamed(storage, classes, key);
  if (rows.length === 0) {
    throw new DatasetError(`${path}: no ${cls.name} with number or name "${key}"${await namedElsewhere(objects, key)}`);
  }
  if (rows.length > 1) {
    throw new DatasetError(
      `${path}: ${rows.length} objects of ${cls.name} have number or name "${key}": name the class`,
    );
  }
  return { id: rows[0].id, oid: `OR:${rows[0].cls}:${rows[0].id}` };
}

/** The storages a reference may name. */
const NAMED_STORAGES: ReadonlySet<string> = new Set<NamedStorage>([
  'object',
  'iteration',
  'master',
  'user',
  'container',
]);

function isNamed(storage: string | null): storage is NamedStorage {
  return storage !== null && NAMED_STORAGES.has(storage);
}

/** What else a number or name a reference found nothing of names, for its message: `; "P-1" names a wt.part.WTPart`. */
async function namedElsewhere(objects: ObjectsImportService, key: string): Promise<string> {
  const classes = await objects.classesNamed(key);
  return classes.length ? `; "${key}" names ${classes.map((c) => `a ${c}`).join(' and ')}` : '';
}

/** Numbers given as references (`{ "ref": … }`), by JSON key: each the id of the record it names. */
export async function idValues(
  objects: ObjectsImportService,
  catalog: Catalog,
  ids: readonly IdRef[],
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const i of ids) out[i.key] = (await resolveRef(objects, catalog, i.ref.class, i.ref, i.path)).id;
  return out;
}

/** JSON references of a record as the values its JSON keeps: ids, or OIDs for `oidJson` ones. */
export async function referenceValues(
  objects: ObjectsImportService,
  catalog: Catalog,
  className: string,
  refs: Record<string, DatasetRef>,
  path: string,
): Promise<Record<string, number | string>> {
  const cls = catalog.findClass(className)!;
  const out: Record<string, number | string> = {};
  for (const [name, ref] of Object.entries(refs)) {
    const def = cls.references.get(name)!;
    const found = await resolveRef(objects, catalog, def.target, ref, `${path}.references.${name}`);
    if ('json' in def.from) out[def.from.json.key] = found.id;
    else if ('oidJson' in def.from) out[def.from.oidJson.key] = found.oid;
  }
  return out;
}

/**
 * The references of plain objects and iterations, and the numbers they give as references:
 * resolved once every record is stored (they may name later ones) and merged into the JSON that
 * keeps them (`objects.props`, `iterations.attributes`). `plainIds` and `iterationIds` are the
 * rows of `data.plainObjects` and `data.objects`.
 */
export async function storeReferences(
  objects: ObjectsImportService,
  data: Dataset,
  plainIds: number[],
  iterationIds: number[],
) {
  const resolved = async (o: Dataset['plainObjects'][number] | Dataset['objects'][number]) => {
    if (Object.keys(o.references).length === 0 && o.ids.length === 0) return null;
    const refs = await referenceValues(objects, data.catalog, o.class, o.references, o.path);
    return { ...refs, ...(await idValues(objects, data.catalog, o.ids)) };
  };
  for (const [i, o] of data.plainObjects.entries()) {
    const values = await resolved(o);
    if (values) await objects.mergePlainProps(plainIds[i], values);
  }
  for (const [i, o] of data.objects.entries()) {
    const values = await resolved(o);
    if (values) await objects.mergeIterationAttributes(iterationIds[i], values);
  }
}
