import type { Prisma } from '../generated/prisma/client.js';
import type { Catalog } from '../catalog/catalog.js';
import { mergeExtension } from '../catalog/catalog-extend.js';
import type { CatalogFile, ClassExtension } from '../catalog/catalog-model.js';
import { DatasetError, type Dataset, type DatasetRef, type IdRef } from './dataset.js';
import { MASTER_SUFFIX, OidClass } from '../catalog/standard-classes.js';

type Tx = Prisma.TransactionClient;

/**
 * Stores the dataset's classes, interfaces and soft types (catalog_types), replacing earlier
 * versions by name, and merges its extensions into those of the same class.
 */
export async function storeTypes(tx: Tx, types: CatalogFile | null): Promise<number> {
  if (!types) return 0;
  const rows = [
    ...(types.classes ?? []).map((spec) => ({ name: spec.name, kind: 'class', spec })),
    ...(types.interfaces ?? []).map((spec) => ({ name: spec.name, kind: 'interface', spec })),
    ...(types.softTypes ?? []).map((spec) => ({ name: spec.name, kind: 'softType', spec })),
  ];
  for (const r of rows) {
    // modified_at moves only when the declaration changed: the services reload on it.
    await tx.$executeRaw`
      INSERT INTO catalog_types (name, kind, spec) VALUES (${r.name}, ${r.kind}, ${JSON.stringify(r.spec)}::jsonb)
      ON CONFLICT (name) DO UPDATE SET kind = EXCLUDED.kind, spec = EXCLUDED.spec, modified_at = now()
      WHERE catalog_types.spec IS DISTINCT FROM EXCLUDED.spec OR catalog_types.kind IS DISTINCT FROM EXCLUDED.kind`;
  }
  const extensions = types.extensions ?? [];
  for (const [i, ext] of extensions.entries()) await storeExtension(tx, ext, `types.extensions[${i}]`);
  return rows.length + extensions.length;
}

/**
 * One row per extended class (named as the class, kind `extension`) holds what every import
 * added to it. The row is merged under its lock: an import running at the same time that gives
 * an entry otherwise than one committed meanwhile is refused with the clash, as it would have
 * been had it started later.
 */
async function storeExtension(tx: Tx, ext: ClassExtension, path: string): Promise<void> {
  const spec = JSON.stringify(ext);
  const inserted = await tx.$queryRaw<{ name: string }[]>`
    INSERT INTO catalog_types (name, kind, spec) VALUES (${ext.class}, 'extension', ${spec}::jsonb)
    ON CONFLICT (name) DO NOTHING RETURNING name`;
  if (inserted.length) return;
  const [row] = await tx.$queryRaw<{ kind: string; spec: ClassExtension }[]>`
    SELECT kind, spec FROM catalog_types WHERE name = ${ext.class} FOR UPDATE`;
  if (row.kind !== 'extension') {
    throw new DatasetError(
      `${path} (${ext.class}): catalog_types holds ${ext.class} as a ${row.kind}, not an extension`,
    );
  }
  const { merged, clashes } = mergeExtension(row.spec, ext);
  if (clashes.length) throw new DatasetError(`${path} (${ext.class}): ${clashes.join('; ')}`);
  await tx.$executeRaw`
    UPDATE catalog_types SET spec = ${JSON.stringify(merged)}::jsonb, modified_at = now()
    WHERE name = ${ext.class} AND spec IS DISTINCT FROM ${JSON.stringify(merged)}::jsonb`;
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
  tx: Tx,
  catalog: Catalog,
  target: string,
  ref: DatasetRef,
  path: string,
): Promise<Resolved> {
  const cls = catalog.findClass(ref.class ?? target)!;
  const classes = [...cls.classValues];
  const key = ref.key;
  let rows: { id: number; cls: string }[];
  switch (cls.storage) {
    case 'object':
      rows = await tx.$queryRaw`
        SELECT id, class AS cls FROM objects
        WHERE class = ANY(${classes}::text[]) AND (number = ${key} OR (number IS NULL AND name = ${key}))`;
      break;
    case 'iteration':
      rows = await tx.$queryRaw`
        SELECT i.id, m.class AS cls FROM iterations i JOIN masters m ON m.id = i.master_id
        WHERE m.class = ANY(${classes}::text[]) AND m.number = ${key} AND i.latest`;
      break;
    case 'master':
      rows = await tx.$queryRaw`
        SELECT id, class || ${MASTER_SUFFIX}::text AS cls FROM masters WHERE class = ANY(${classes}::text[]) AND number = ${key}`;
      break;
    case 'user':
      rows = await tx.$queryRaw`SELECT id, ${OidClass.user}::text AS cls FROM users WHERE name = ${key}`;
      break;
    case 'container':
      rows = await tx.$queryRaw`SELECT id, class AS cls FROM containers WHERE name = ${key}`;
      break;
    default:
      throw new DatasetError(`${path}: objects of ${cls.name} (storage ${cls.storage}) cannot be referenced here`);
  }
  if (rows.length === 0) {
    throw new DatasetError(`${path}: no ${cls.name} with number or name "${key}"${await namedElsewhere(tx, key)}`);
  }
  if (rows.length > 1) {
    throw new DatasetError(
      `${path}: ${rows.length} objects of ${cls.name} have number or name "${key}": name the class`,
    );
  }
  return { id: rows[0].id, oid: `OR:${rows[0].cls}:${rows[0].id}` };
}

/** What else a number or name a reference found nothing of names, for its message: `; "P-1" names a wt.part.WTPart`. */
async function namedElsewhere(tx: Tx, key: string): Promise<string> {
  const rows = await tx.$queryRaw<{ cls: string }[]>`
    SELECT DISTINCT cls FROM (
      SELECT class AS cls FROM masters WHERE number = ${key}
      UNION ALL SELECT class FROM objects WHERE number = ${key} OR (number IS NULL AND name = ${key})
      UNION ALL SELECT ${OidClass.user}::text FROM users WHERE name = ${key}
      UNION ALL SELECT class FROM containers WHERE name = ${key}) t
    ORDER BY cls LIMIT 5`;
  return rows.length ? `; "${key}" names ${rows.map((r) => `a ${r.cls}`).join(' and ')}` : '';
}

/** Numbers given as references (`{ "ref": … }`), by JSON key: each the id of the record it names. */
export async function idValues(tx: Tx, catalog: Catalog, ids: readonly IdRef[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const i of ids) out[i.key] = (await resolveRef(tx, catalog, i.ref.class, i.ref, i.path)).id;
  return out;
}

/** JSON references of a record as the values its JSON keeps: ids, or OIDs for `oidJson` ones. */
export async function referenceValues(
  tx: Tx,
  catalog: Catalog,
  className: string,
  refs: Record<string, DatasetRef>,
  path: string,
): Promise<Record<string, number | string>> {
  const cls = catalog.findClass(className)!;
  const out: Record<string, number | string> = {};
  for (const [name, ref] of Object.entries(refs)) {
    const def = cls.references.get(name)!;
    const found = await resolveRef(tx, catalog, def.target, ref, `${path}.references.${name}`);
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
export async function storeReferences(tx: Tx, data: Dataset, plainIds: number[], iterationIds: number[]) {
  const resolved = async (o: Dataset['plainObjects'][number] | Dataset['objects'][number]) => {
    if (Object.keys(o.references).length === 0 && o.ids.length === 0) return null;
    const refs = await referenceValues(tx, data.catalog, o.class, o.references, o.path);
    return JSON.stringify({ ...refs, ...(await idValues(tx, data.catalog, o.ids)) });
  };
  for (const [i, o] of data.plainObjects.entries()) {
    const values = await resolved(o);
    if (values) await tx.$executeRaw`UPDATE objects SET props = props || ${values}::jsonb WHERE id = ${plainIds[i]}`;
  }
  for (const [i, o] of data.objects.entries()) {
    const values = await resolved(o);
    if (values) {
      await tx.$executeRaw`
        UPDATE iterations SET attributes = attributes || ${values}::jsonb WHERE id = ${iterationIds[i]}`;
    }
  }
}
