import { InputError } from '../../common/input-error.js';
import type { Catalog } from '../../catalog/catalog.js';
import { standardCatalog } from '../../catalog/catalog-load.js';

/**
 * The parsed form of `q` objects (see docs/query.md): what the parser produces and the compiler
 * turns into SQL. Plain data, no SQL and no NestJS.
 */

/** How a key's values are typed and which column kind it addresses. */
export type FieldKind = 'text' | 'int' | 'timestamp' | 'type' | 'attribute';

export type Scalar = string | number | boolean;

/** One condition on a key; all conditions of one key must hold. */
export type Cond =
  | { op: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte'; value: Scalar }
  /** the key is absent or empty (`null` value, `exists: false`), or the opposite */
  | { op: 'empty' | 'present' }
  /** pattern is a SQL LIKE pattern with `\` as escape character */
  | { op: 'like' | 'ilike'; pattern: string }
  | { op: 'in'; values: Scalar[] }
  | { op: 'between'; low: Scalar; high: Scalar }
  /** an array value: any of its elements matches */
  | { op: 'any'; conds: Cond[] };

export interface Criterion {
  key: string;
  kind: FieldKind;
  /** the custom attribute's name for `attributes.<name>` */
  attribute?: string;
  conds: Cond[];
}

export interface SortKey {
  key: string;
  desc: boolean;
}

export interface ParsedQ {
  criteria: Criterion[];
  /** only latest iterations (default true) */
  latest: boolean;
  /** only objects checked out (true) or checked in (false); null: either */
  checkedOut: boolean | null;
  /** the object's own `sort`, or null when it has none */
  sort: SortKey[] | null;
  /** the object as echoed back in `query`: values normalized, defaults made explicit */
  normalized: Record<string, unknown>;
}

export interface ParsedQuery {
  parts: ParsedQ[];
  sort: SortKey[];
  /** What each name `type` took means (of the catalog the query was parsed with). */
  types: ReadonlyMap<string, QType>;
}

/** What a `type` value matches: objects of these classes, and (a soft type) of these soft types. */
export interface QType {
  classes: readonly string[];
  /** null: any soft type or none */
  softTypes: readonly string[] | null;
}

/** A `q` the caller got wrong; the message names the key (`q[0].modified.gte: …`). */
export class QError extends InputError {}

export const MAX_Q = 20;
export const MAX_CRITERIA = 20;
export const MAX_ARRAY = 1000;

const typeMaps = new WeakMap<Catalog, ReadonlyMap<string, QType>>();

/**
 * The names `type` accepts with what each matches: the versioned classes of the type catalog
 * (stored as masters and iterations; a class matches itself and its subclasses), then the soft
 * types of those classes (a soft type matches itself and the soft types below it), the standard
 * ones and those users declared (a dataset's `types`).
 */
export function typeClasses(catalog: Catalog = standardCatalog()): ReadonlyMap<string, QType> {
  const known = typeMaps.get(catalog);
  if (known) return known;
  const versioned = catalog.listClasses().filter((c) => c.storage === 'iteration' && c.classValues.length > 0);
  // Classes first, then the abstract ones that stand for several.
  const ordered = [...versioned.filter((c) => !c.abstract), ...versioned.filter((c) => c.abstract)];
  const map = new Map<string, QType>(ordered.map((c) => [c.name, { classes: c.classValues, softTypes: null }]));
  for (const st of catalog.listSoftTypes()) {
    const cls = catalog.findClass(st.cls);
    if (cls?.storage === 'iteration' && !map.has(st.name)) {
      map.set(st.name, { classes: cls.classValues, softTypes: st.descendants });
    }
  }
  typeMaps.set(catalog, map);
  return map;
}

/** The criteria keys besides `attributes.<name>` and `latest`. */
export const FIELDS: ReadonlyMap<string, FieldKind> = new Map<string, FieldKind>([
  ['type', 'type'],
  ['subtype', 'text'],
  ['number', 'text'],
  ['name', 'text'],
  ['state', 'text'],
  ['version', 'text'],
  ['iteration', 'int'],
  ['container', 'text'],
  ['createdBy', 'text'],
  ['modifiedBy', 'text'],
  ['checkedOutBy', 'text'],
  ['created', 'timestamp'],
  ['modified', 'timestamp'],
]);

export const SORT_KEYS = [
  'number',
  'name',
  'type',
  'subtype',
  'state',
  'version',
  'iteration',
  'latest',
  'container',
  'createdBy',
  'modifiedBy',
  'created',
  'modified',
] as const;

export const DEFAULT_SORT: SortKey[] = [{ key: 'number', desc: false }];
