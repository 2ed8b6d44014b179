import type { ComputedKind, PropertyDef, PropertySpec, ReferenceDef, ReferenceSpec } from './catalog-model.js';
import { columnType, jsonColumn, STORAGES, type Aux, type StorageKind } from './storage.js';

/**
 * Where a property or reference of a class of a storage kind keeps its value: the entries of a
 * catalog file checked against the storage whitelist (src/catalog/storage.ts) and resolved.
 */

/** Computed values that need something of the storage. */
const COMPUTED_NEEDS: Partial<Record<ComputedKind, (k: StorageKind) => boolean>> = {
  iterationDisplay: (k) => k === 'iteration',
  versionReference: (k) => k === 'iteration',
  branchId: (k) => k === 'iteration',
  checkoutState: (k) => k === 'iteration',
  identity: (k) => k === 'iteration' || k === 'master',
  folderPath: (k) => STORAGES[k].aux.container !== undefined,
  containerName: (k) => STORAGES[k].aux.container !== undefined,
  formatName: (k) => k === 'content',
};

export type Problem = (where: string, message: string) => void;

export function propertyDef(kind: StorageKind, p: PropertySpec, where: string, problem: Problem): PropertyDef | null {
  const storage = STORAGES[kind];
  if ('computed' in p) {
    const needs = COMPUTED_NEEDS[p.computed];
    if (needs && !needs(kind)) {
      problem(where, `computed ${p.computed} is not available on storage ${kind}`);
      return null;
    }
    const type = p.computed === 'oid' ? 'oid' : p.computed === 'branchId' ? 'long' : 'string';
    return { type, computed: p.computed, about: p.about };
  }
  const aux: Aux = p.via ?? 'self';
  if (aux !== 'self' && !storage.aux[aux]) {
    problem(where, `storage ${kind} has no ${aux} to read through`);
    return null;
  }
  if ('column' in p) {
    const t = columnType(storage, { aux, column: p.column });
    if (!t) {
      problem(
        where,
        `column ${p.column} is not a column of ${aux === 'self' ? kind : aux} (see src/catalog/storage.ts)`,
      );
      return null;
    }
    const fits = t === p.type || (t === 'long' && p.type === 'double');
    if (!fits) {
      problem(where, `column ${p.column} holds ${t}, not ${p.type}`);
      return null;
    }
    return { type: p.type, at: { aux, column: p.column }, about: p.about };
  }
  const json = jsonColumn(storage, aux);
  if (!json) {
    problem(where, `storage ${kind} keeps no JSON properties${aux === 'self' ? '' : ` on its ${aux}`}`);
    return null;
  }
  return { type: p.type, json: { at: json, key: p.json }, about: p.about };
}

export function referenceDef(
  kind: StorageKind,
  name: string,
  r: ReferenceSpec,
  where: string,
  problem: Problem,
): ReferenceDef | null {
  const storage = STORAGES[kind];
  if ('oidColumns' in r) {
    const cls = { aux: 'self' as const, column: r.oidColumns.class };
    const id = { aux: 'self' as const, column: r.oidColumns.id };
    if (columnType(storage, cls) !== 'string') {
      problem(where, `column ${cls.column} is not a text column of ${kind} (the class of the OID)`);
      return null;
    }
    if (columnType(storage, id) !== 'long') {
      problem(where, `column ${id.column} is not an id column of ${kind} (the id of the OID)`);
      return null;
    }
    return { name, target: r.target, from: { oidColumns: { cls, id } } };
  }
  if ('column' in r) {
    const aux: Aux = r.via ?? 'self';
    const t = columnType(storage, { aux, column: r.column });
    if (t !== 'long') {
      problem(where, `column ${r.column} is not an id column of ${aux === 'self' ? kind : aux}`);
      return null;
    }
    return { name, target: r.target, from: { at: { aux, column: r.column } } };
  }
  const json = jsonColumn(storage, 'self');
  if (!json) {
    problem(where, `storage ${kind} keeps no JSON properties`);
    return null;
  }
  return 'json' in r
    ? { name, target: r.target, from: { json: { at: json, key: r.json } } }
    : { name, target: r.target, from: { oidJson: { at: json, key: r.oidJson } } };
}
