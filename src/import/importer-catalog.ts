import type { Prisma } from '../generated/prisma/client.js';
import type { Catalog } from '../catalog/catalog.js';
import type { CatalogFile } from '../catalog/catalog-model.js';
import { DatasetError, type DatasetRef } from './dataset.js';
import { MASTER_SUFFIX, OidClass } from '../catalog/standard-classes.js';

type Tx = Prisma.TransactionClient;

/** Stores the dataset's classes, interfaces and soft types (catalog_types), replacing earlier versions by name. */
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
  return rows.length;
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
  if (rows.length === 0) throw new DatasetError(`${path}: no ${cls.name} with number or name "${key}"`);
  if (rows.length > 1) {
    throw new DatasetError(
      `${path}: ${rows.length} objects of ${cls.name} have number or name "${key}": name the class`,
    );
  }
  return { id: rows[0].id, oid: `OR:${rows[0].cls}:${rows[0].id}` };
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
