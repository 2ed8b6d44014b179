import { ident, join, raw, sql, type Sql } from '../../catalog/sql.js';
import type { Aux, ColumnRef, Storage } from '../../catalog/storage.js';
import type { ComputedTable, SqlExpr } from '../plan/plan-types.js';
import type { ValueType } from '../qml-types.js';
import { MASTER_SUFFIX } from '../../catalog/standard-classes.js';

/** Column references, JSON keys and computed values of report SQL (see sql.ts). */

/** The alias of a table's helper join (`t1m` for the master of `t1`). */
export function auxAlias(alias: string, storage: Storage, aux: Aux): string {
  if (aux === 'self') return alias;
  const join = storage.aux[aux];
  if (!join) throw new Error(`storage ${storage.kind} has no ${aux}`);
  return `${alias}${join.suffix}`;
}

export function at(alias: string, storage: Storage, ref: ColumnRef): Sql {
  return ident(auxAlias(alias, storage, ref.aux), ref.column);
}

/**
 * A JSON key read as its type: a value of another JSON type, or one that does not fit the type
 * (a fraction for a long, a number past the range, a text that is no date), reads as NULL.
 */
export function jsonValue(doc: Sql, key: string, type: ValueType): Sql {
  const v = sql`(${doc} -> ${key}::text)`;
  const text = sql`(${doc} ->> ${key}::text)`;
  switch (type) {
    case 'string':
    case 'oid':
      return text;
    case 'boolean':
      return sql`(CASE WHEN jsonb_typeof(${v}) = 'boolean' THEN (${text})::boolean END)`;
    case 'long':
      return sql`(CASE WHEN jsonb_typeof(${v}) = 'number' AND (${text})::numeric = trunc((${text})::numeric) AND abs((${text})::numeric) <= 9223372036854775807 THEN (${text})::numeric::int8 END)`;
    case 'double':
      return sql`(CASE WHEN jsonb_typeof(${v}) = 'number' AND abs((${text})::numeric) < 1e308 THEN (${text})::float8 END)`;
    case 'timestamp':
      // jsonpath's datetime() checks the date silently; ISO forms with T and Z are normalised first.
      return sql`(CASE WHEN jsonb_typeof(${v}) = 'string' THEN (jsonb_path_query_first(to_jsonb(regexp_replace(replace(${text}, 'T', ' '), 'Z$', '+00:00')), '$.datetime()', '{}', true) #>> '{}')::timestamptz END)`;
  }
}

const FORMATS: [string, string][] = [
  ['application/pdf', 'PDF'],
  ['text/plain', 'Text'],
  ['text/csv', 'CSV'],
  ['image/png', 'PNG'],
  ['image/jpeg', 'JPEG'],
  ['application/zip', 'ZIP'],
  ['application/xml', 'XML'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'Microsoft Word'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'Microsoft Excel'],
  ['application/octet-stream', 'Binary'],
];

/** `CASE <column> WHEN <bound name> THEN <bound label> … END`. */
function labelCase(column: Sql, labels: readonly [string, string][]): Sql {
  if (labels.length === 0) return raw('NULL::text');
  return sql`(CASE ${column} ${join(
    labels.map(([k, v]) => sql`WHEN ${k}::text THEN ${v}::text`),
    ' ',
  )} END)`;
}

function className(t: ComputedTable): Sql {
  const oid = t.storage.oid;
  if (t.storage.classColumn) return at(t.alias, t.storage, t.storage.classColumn);
  return oid === 'catalogClass' ? sql`${t.cls}::text` : at(t.alias, t.storage, oid.classAt);
}

/** The branch id of an iteration's version: the id of the version's first iteration. */
function branchId(a: string): Sql {
  const b = `${a}vb`;
  return sql`(SELECT min(${ident(b, 'id')}) FROM iterations ${ident(b)}
    WHERE ${ident(b, 'master_id')} = ${ident(a, 'master_id')} AND ${ident(b, 'version')} = ${ident(a, 'version')})`;
}

export function computed(name: Extract<SqlExpr, { k: 'computed' }>['name'], t: ComputedTable): Sql {
  const a = t.alias;
  switch (name) {
    case 'oid': {
      const idText = sql`${ident(a, 'id')}::text`;
      const oid = t.storage.oid;
      if (oid === 'catalogClass') return sql`(${`OR:${t.cls}:`}::text || ${idText})`;
      return sql`('OR:' || ${at(a, t.storage, oid.classAt)} || ${oid.suffix} || ${idText})`;
    }
    case 'classname':
      return t.storage.kind === 'master' ? sql`(${className(t)} || ${raw(`'${MASTER_SUFFIX}'`)})` : className(t);
    case 'typeName': {
      const soft = t.storage.softTypeColumn;
      return soft ? sql`(${className(t)} || coalesce('|' || ${at(a, t.storage, soft)}, ''))` : className(t);
    }
    case 'displayType': {
      const cls = t.storage.classColumn
        ? labelCase(className(t), t.labels.classes)
        : sql`${t.labels.classes[0]?.[1] ?? t.cls}::text`;
      const soft = t.storage.softTypeColumn;
      if (!soft || t.labels.softTypes.length === 0) return cls;
      const st = at(a, t.storage, soft);
      return sql`coalesce(${labelCase(st, t.labels.softTypes)}, ${cls})`;
    }
    case 'iterationDisplay':
      return sql`(${ident(a, 'version')} || '.' || ${ident(a, 'iteration')}::text)`;
    case 'branchId':
      return branchId(a);
    case 'versionReference': {
      // VR:<class>:<branch id> (src/common/version-ref.ts): the version, whatever iteration the row is.
      const oid = t.storage.oid as Exclude<typeof t.storage.oid, 'catalogClass'>;
      return sql`('VR:' || ${at(a, t.storage, oid.classAt)} || ':' || ${branchId(a)}::text)`;
    }
    case 'identity': {
      // As Windchill shows a versioned object: `<number> - <name>`, an iteration with `, A.1`.
      const m = t.storage.kind === 'iteration' ? auxAlias(a, t.storage, 'master') : a;
      const head = sql`(${ident(m, 'number')} || ' - ' || ${ident(m, 'name')}`;
      if (t.storage.kind !== 'iteration') return sql`${head})`;
      return sql`${head} || ', ' || ${ident(a, 'version')} || '.' || ${ident(a, 'iteration')}::text)`;
    }
    case 'checkoutState': {
      // Windchill's checkoutInfo.state (wt.vc.wip.WorkInProgressState): `wrk` the working copy,
      // `c/o` the latest iteration of an object checked out (the original), `c/i` every other.
      const m = auxAlias(a, t.storage, 'master');
      return sql`(CASE WHEN ${ident(a, 'working')} THEN 'wrk' WHEN ${ident(a, 'latest')} AND ${ident(m, 'checked_out_by')} IS NOT NULL THEN 'c/o' ELSE 'c/i' END)`;
    }
    case 'folderPath':
      return sql`('/' || ${ident(auxAlias(a, t.storage, 'container'), 'name')})`;
    case 'containerName':
      return ident(auxAlias(a, t.storage, 'container'), 'name');
    case 'formatName':
      return sql`coalesce(${labelCase(ident(a, 'mime_type'), FORMATS)}, ${ident(a, 'mime_type')})`;
  }
}
