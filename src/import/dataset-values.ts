/**
 * Values a dataset record gives that are not plain JSON values (docs/dataset-format.md): a number
 * given as a reference to another record, `{ "ref": { "class": …, "number": … } }`, stored as
 * that record's id once the importer has stored every record; and, for a versioned record, what
 * it gives its master (`master`: the master class's JSON properties, references and custom
 * attributes, and the record's own properties the catalog keeps on the master).
 */
import type { Catalog } from '../catalog/catalog.js';
import type { CatalogClass, PropertyType, ReferenceDef } from '../catalog/catalog-model.js';
import type { StorageKind } from '../catalog/storage.js';
import type { DatasetRef, JsonScalar } from './dataset-catalog.js';

type Json = Record<string, unknown>;
type Fail = (path: string, message: string) => never;

/** A number given as the id of another record: the JSON key it fills, the record it names, where it was given. */
export interface IdRef {
  key: string;
  ref: { class: string; key: string };
  path: string;
}

/** What a versioned record gives its master, stored in the master's JSON (`masters.attributes`). */
export interface DatasetMasterValues {
  /** Plain values by JSON key: properties of the master class, `via: master` ones of the record's class, attributes. */
  props: Record<string, JsonScalar>;
  ids: IdRef[];
  /** References of the master class kept in JSON, by name. */
  references: Record<string, DatasetRef>;
}

/** The storages whose records a reference finds by number or name (see resolveRef). */
const FOUND_BY_NUMBER: readonly StorageKind[] = ['object', 'iteration', 'master', 'user', 'container'];

const REF_SHAPE = '{ "ref": { "class": "<class>", "number": "<number or name>" } }';
export const ATTRIBUTE_VALUE = `must be a string, number, boolean, null or ${REF_SHAPE}`;

/** The JSON key a reference keeps its target in, or null when it keeps it in a column. */
function jsonKeyOf(ref: ReferenceDef): string | null {
  if ('json' in ref.from) return ref.from.json.key;
  if ('oidJson' in ref.from) return ref.from.oidJson.key;
  return null;
}

/**
 * A value given as `{ "ref": { "class", "number" } }`, or null for any other value (checked as a
 * plain one). Only a `long` takes it. `owner` is the class whose JSON keeps the value: when one
 * of its references keeps its target in the same key (`view.key.id` and `view` of parts), the
 * record named must be of that reference's target class.
 */
export function idRef(
  v: unknown,
  key: string,
  type: PropertyType,
  owner: CatalogClass,
  catalog: Catalog,
  path: string,
  fail: Fail,
): IdRef | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Json;
  for (const k of Object.keys(o)) if (k !== 'ref') fail(path, `unknown field "${k}" (a reference is ${REF_SHAPE})`);
  const r = o.ref as Json | undefined;
  const shape = typeof r === 'object' && r !== null && !Array.isArray(r);
  if (
    !shape ||
    Object.keys(r).some((k) => k !== 'class' && k !== 'number') ||
    typeof r.class !== 'string' ||
    typeof r.number !== 'string' ||
    r.number.trim() === ''
  ) {
    fail(`${path}.ref`, `a reference is ${REF_SHAPE}`);
  }
  if (type !== 'long') fail(path, `a reference gives an id, which only a long takes (this is a ${type})`);
  const name = r!.class as string;
  const target = catalog.findClass(name);
  if (!target) fail(`${path}.ref.class`, `unknown class ${name}`);
  if (!target!.storage || !FOUND_BY_NUMBER.includes(target!.storage)) {
    fail(
      `${path}.ref.class`,
      `objects of ${name} (storage ${target!.storage ?? 'of several kinds'}) cannot be named by number or name; ` +
        'name a class of objects, versioned objects, masters, users or containers',
    );
  }
  for (const ref of owner.references.values()) {
    if (jsonKeyOf(ref) === key && !catalog.isA(target!.name, ref.target)) {
      fail(
        `${path}.ref.class`,
        `${name} is not a ${ref.target}: ${owner.name} keeps its reference ${ref.name} in this value`,
      );
    }
  }
  return { key, ref: { class: target!.name, key: r!.number as string }, path };
}

/**
 * A JSON key given twice by one record (a property or an attribute, and a reference kept in the
 * same key) is refused: one of them would be lost without a word.
 */
export function oneValuePerKey(
  cls: CatalogClass,
  props: Record<string, JsonScalar>,
  ids: readonly IdRef[],
  references: Record<string, DatasetRef>,
  path: string,
  fail: Fail,
): void {
  for (const name of Object.keys(references)) {
    const key = jsonKeyOf(cls.references.get(name)!);
    if (key === null) continue;
    const given = ids.find((i) => i.key === key)?.path ?? (key in props ? 'a property or attribute' : null);
    if (given)
      fail(`${path}.references.${name}`, `keeps its target where ${given} gives a value too; give one of them`);
  }
}
