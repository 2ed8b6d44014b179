import { join, sql, type Sql } from '../../catalog/sql.js';
import {
  type Cond,
  type Criterion,
  type FieldKind,
  type ParsedQuery,
  type QType,
  type Scalar,
  type SortKey,
} from './q-model.js';

/*
 * SQL for parsed `q` objects over `iterations i JOIN masters m ON m.id = i.master_id`.
 * Keys reach columns only through the tables below; every value is a bound parameter.
 * Exact and prefix matches on masters.number/name stay plain `=` and `LIKE` so that their
 * btree and text_pattern_ops indexes apply; arrays are bound as one array parameter each.
 */

const COLUMNS: Record<string, Sql> = {
  subtype: sql`m.subtype`,
  number: sql`m.number`,
  name: sql`m.name`,
  state: sql`i.state`,
  version: sql`i.version`,
  iteration: sql`i.iteration`,
  created: sql`i.created_at`,
  modified: sql`i.modified_at`,
  type: sql`m.class`,
};

/** Keys naming a row elsewhere: the condition applies to that row's name. */
const NAME_LOOKUPS: Record<string, (pred: Sql) => Sql> = {
  container: (pred) => sql`m.container_id IN (SELECT c.id FROM containers c WHERE ${pred})`,
  createdBy: (pred) => sql`i.created_by IN (SELECT u.id FROM users u WHERE ${pred})`,
  modifiedBy: (pred) => sql`i.modified_by IN (SELECT u.id FROM users u WHERE ${pred})`,
  checkedOutBy: (pred) => sql`m.checked_out_by IN (SELECT u.id FROM users u WHERE ${pred})`,
};
const LOOKUP_NAME: Record<string, Sql> = {
  container: sql`c.name`,
  createdBy: sql`u.name`,
  modifiedBy: sql`u.name`,
  checkedOutBy: sql`u.name`,
};

const SORT_COLUMNS: Record<string, Sql> = {
  ...COLUMNS,
  latest: sql`i.latest`,
  container: sql`(SELECT c.name FROM containers c WHERE c.id = m.container_id)`,
  createdBy: sql`(SELECT u.name FROM users u WHERE u.id = i.created_by)`,
  modifiedBy: sql`(SELECT u.name FROM users u WHERE u.id = i.modified_by)`,
};

const TRUE = sql`TRUE`;
const FALSE = sql`FALSE`;

function and(parts: Sql[]): Sql {
  if (parts.length <= 1) return parts[0] ?? TRUE;
  return sql`(${join(parts, ' AND ')})`;
}

function or(parts: Sql[]): Sql {
  if (parts.length <= 1) return parts[0] ?? FALSE;
  return sql`(${join(parts, ' OR ')})`;
}

/** The WHERE condition of the union of all `q` objects (without permissions). */
export function compileWhere(query: ParsedQuery): Sql {
  return or(
    query.parts.map((part) => {
      const conds = part.criteria.map((c) => compileCriterion(c, query.types));
      if (part.checkedOut !== null) conds.unshift(checkedOutCond(part.checkedOut));
      if (part.latest) conds.unshift(sql`i.latest`);
      return and(conds);
    }),
  );
}

/** ORDER BY items: the sort keys, then the iteration id so that the order is total. */
export function compileOrder(sort: SortKey[]): Sql {
  const keys = sort.map((k) => (k.desc ? sql`${SORT_COLUMNS[k.key]} DESC` : sql`${SORT_COLUMNS[k.key]} ASC`));
  return join([...keys, sql`i.id ASC`], ', ');
}

/** Criteria keys that compare columns of masters (or rows found from them) only. */
const MASTER_KEYS: ReadonlySet<string> = new Set(['number', 'name', 'type', 'subtype', 'container', 'checkedOutBy']);

/** `checkedOut`: the object is checked out (true) or checked in (false), a condition on its master. */
function checkedOutCond(checkedOut: boolean): Sql {
  return checkedOut ? sql`m.checked_out_by IS NOT NULL` : sql`m.checked_out_by IS NULL`;
}

/**
 * A query that can take its order from masters_number_idx: one `q` object, sorted by number
 * (the default), with criteria on masters only. Its matches are read as masters in number
 * order, each followed by its iterations (see QueryRepository.snapshot), so a million of them
 * are never sorted. `where` is over `masters m` alone; `latest` says whether only latest
 * iterations match. Null for every other query, which is sorted after the join.
 */
export interface NumberOrderScan {
  where: Sql;
  desc: boolean;
  latest: boolean;
}

export function numberOrderScan(query: ParsedQuery): NumberOrderScan | null {
  if (query.parts.length !== 1 || query.sort.length !== 1 || query.sort[0].key !== 'number') return null;
  const [part] = query.parts;
  if (!part.criteria.every((c) => c.kind !== 'attribute' && MASTER_KEYS.has(c.key))) return null;
  const conds = part.criteria.map((c) => compileCriterion(c, query.types));
  if (part.checkedOut !== null) conds.unshift(checkedOutCond(part.checkedOut));
  return {
    where: and(conds),
    desc: query.sort[0].desc,
    latest: part.latest,
  };
}

function compileCriterion(c: Criterion, types: ReadonlyMap<string, QType>): Sql {
  if (c.kind === 'attribute') return and(c.conds.map((cond) => attributeCond(c.attribute!, cond)));
  const lookup = NAME_LOOKUPS[c.key];
  if (lookup) return lookup(and(c.conds.map((cond) => columnCond(LOOKUP_NAME[c.key], 'text', cond))));
  if (c.kind === 'type') return and(c.conds.map((cond) => typeCond(cond, types)));
  return and(c.conds.map((cond) => columnCond(COLUMNS[c.key], c.kind, cond)));
}

/** Objects of any of the types: of their classes and, for a soft type, of it or a soft type below it. */
function classesOf(types: Scalar[], known: ReadonlyMap<string, QType>): Sql {
  const named = [...new Set(types.map(String))].map((t) => known.get(t)!);
  const classes = [...new Set(named.filter((t) => !t.softTypes).flatMap((t) => t.classes))];
  const parts = classes.length ? [sql`m.class IN (${join(classes)})`] : [];
  for (const t of named.filter((n) => n.softTypes)) {
    parts.push(
      sql`(m.class IN (${join(t.classes)}) AND m.soft_type IS NOT NULL AND m.soft_type IN (${join(t.softTypes!)}))`,
    );
  }
  return or(parts);
}

function typeCond(cond: Cond, known: ReadonlyMap<string, QType>): Sql {
  switch (cond.op) {
    case 'eq':
      return classesOf([cond.value], known);
    case 'ne':
      return sql`NOT ${classesOf([cond.value], known)}`;
    case 'in':
      return cond.values.length ? classesOf(cond.values, known) : FALSE;
    case 'any':
      return or(cond.conds.map((c) => typeCond(c, known)));
    case 'empty':
      return FALSE;
    case 'present':
      return TRUE;
    default:
      throw new Error(`operator ${cond.op} on type passed the parser`);
  }
}

const CAST: Record<Exclude<FieldKind, 'type' | 'attribute'>, { one: Sql; many: Sql }> = {
  text: { one: sql`::text`, many: sql`::text[]` },
  int: { one: sql`::integer`, many: sql`::integer[]` },
  timestamp: { one: sql`::timestamptz`, many: sql`::timestamptz[]` },
};

const COMPARE: Record<string, Sql> = {
  eq: sql`=`,
  lt: sql`<`,
  lte: sql`<=`,
  gt: sql`>`,
  gte: sql`>=`,
};

function columnCond(col: Sql, kind: 'text' | 'int' | 'timestamp' | FieldKind, cond: Cond): Sql {
  const cast = CAST[kind as keyof typeof CAST];
  const isText = kind === 'text';
  switch (cond.op) {
    case 'eq':
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return sql`${col} ${COMPARE[cond.op]} ${cond.value}${cast.one}`;
    case 'ne':
      return sql`${col} IS DISTINCT FROM ${cond.value}${cast.one}`;
    case 'empty':
      return isText ? sql`(${col} IS NULL OR ${col} = '')` : sql`${col} IS NULL`;
    case 'present':
      return isText ? sql`(${col} IS NOT NULL AND ${col} <> '')` : sql`${col} IS NOT NULL`;
    case 'like':
      return sql`${col} LIKE ${cond.pattern}`;
    case 'ilike':
      return sql`${col} ILIKE ${cond.pattern}`;
    case 'in':
      return sql`${col} = ANY(${cond.values}${cast.many})`;
    case 'between':
      return sql`${col} BETWEEN ${cond.low}${cast.one} AND ${cond.high}${cast.one}`;
    case 'any':
      return anyCond(
        cond.conds,
        (values) => columnCond(col, kind, { op: 'in', values }),
        (pattern) => sql`${col} LIKE ANY(${pattern}::text[])`,
        (c) => columnCond(col, kind, c),
      );
  }
}

/**
 * An array value: its exact values become one `= ANY(array)`, its wildcard values one
 * `LIKE ANY(array)`, so that a long array stays two parameters.
 */
function anyCond(
  conds: Cond[],
  inList: (values: Scalar[]) => Sql,
  likeAny: (patterns: string[]) => Sql,
  single: (cond: Cond) => Sql,
): Sql {
  const exact: Scalar[] = [];
  const patterns: string[] = [];
  const rest: Sql[] = [];
  for (const c of conds) {
    if (c.op === 'eq') exact.push(c.value);
    else if (c.op === 'like') patterns.push(c.pattern);
    else rest.push(single(c));
  }
  if (exact.length) rest.push(inList(exact));
  if (patterns.length) rest.push(likeAny(patterns));
  return or(rest);
}

/**
 * Custom attributes live in iterations.attributes (jsonb). A string value compares the text
 * form, a number compares numerically (only with numeric attributes), a boolean the JSON value.
 */
function attributeCond(name: string, cond: Cond): Sql {
  const json = sql`(i.attributes -> ${name}::text)`;
  const text = sql`(i.attributes ->> ${name}::text)`;
  const num = sql`(CASE WHEN jsonb_typeof(${json}) = 'number' THEN (${text})::numeric END)`;
  const typed = (v: Scalar): { expr: Sql; value: Sql } =>
    typeof v === 'number'
      ? { expr: num, value: sql`${v}::numeric` }
      : typeof v === 'boolean'
        ? { expr: json, value: sql`to_jsonb(${v}::boolean)` }
        : { expr: text, value: sql`${v}::text` };
  switch (cond.op) {
    case 'eq':
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const t = typed(cond.value);
      return sql`${t.expr} ${COMPARE[cond.op]} ${t.value}`;
    }
    case 'ne': {
      const t = typed(cond.value);
      return sql`${t.expr} IS DISTINCT FROM ${t.value}`;
    }
    case 'empty':
      return sql`COALESCE(${text}, '') = ''`;
    case 'present':
      return sql`COALESCE(${text}, '') <> ''`;
    case 'like':
      return sql`${text} LIKE ${cond.pattern}`;
    case 'ilike':
      return sql`${text} ILIKE ${cond.pattern}`;
    case 'between': {
      const lo = typed(cond.low);
      const hi = typed(cond.high);
      return sql`(${lo.expr} >= ${lo.value} AND ${hi.expr} <= ${hi.value})`;
    }
    case 'in':
      return attributeIn(cond.values, text, num, json);
    case 'any':
      return anyCond(
        cond.conds,
        (values) => attributeIn(values, text, num, json),
        (patterns) => sql`${text} LIKE ANY(${patterns}::text[])`,
        (c) => attributeCond(name, c),
      );
  }
}

function attributeIn(values: Scalar[], text: Sql, num: Sql, json: Sql): Sql {
  const strings = values.filter((v): v is string => typeof v === 'string');
  const numbers = values.filter((v): v is number => typeof v === 'number');
  const booleans = [...new Set(values.filter((v): v is boolean => typeof v === 'boolean'))];
  const parts: Sql[] = [];
  if (strings.length) parts.push(sql`${text} = ANY(${strings}::text[])`);
  if (numbers.length) parts.push(sql`${num} = ANY(${numbers}::numeric[])`);
  for (const b of booleans) parts.push(sql`${json} = to_jsonb(${b}::boolean)`);
  return or(parts);
}
