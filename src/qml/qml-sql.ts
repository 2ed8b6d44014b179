import { ident, join, raw, sql, type Sql } from '../catalog/sql.js';
import type { Aux, ColumnRef, Storage } from '../catalog/storage.js';
import type { AccessScope, ComputedTable, Plan, PlannedTable, SqlCond, SqlExpr } from './qml-plan-types.js';
import type { ValueType } from './qml-types.js';
import { MASTER_SUFFIX } from '../catalog/standard-classes.js';
import { likeRange } from './qml-sql-like.js';

/**
 * Renders a Plan as one parameterised query (SQL text and bound values). Identifiers come only
 * from the storage whitelist (src/catalog/storage.ts) and generated aliases, checked by `ident`;
 * every value is a bound parameter.
 */
export { genericPlanFits } from './qml-sql-like.js';

export function renderSql(plan: Plan): Sql {
  const items = plan.select.map((s, i) => sql`${expr(s.expr)} AS ${ident(`c${i + 1}`)}`);
  const { source, joined } = from(plan.from, plan.where);
  const where = plan.where.filter((c) => !joined.has(c));
  const parts: Sql[] = [
    sql`SELECT ${plan.distinct ? raw('DISTINCT ') : raw('')}${join(items, ', ')}`,
    sql`FROM ${source}`,
  ];
  if (where.length) parts.push(sql`WHERE ${and(where)}`);
  if (plan.groupBy.length) parts.push(raw(`GROUP BY ${plan.groupBy.map(ordinal).join(', ')}`));
  if (plan.orderBy.length) {
    const keys = plan.orderBy.map((o) => {
      const by = 'ordinal' in o.by ? raw(ordinal(o.by.ordinal)) : expr(o.by.expr);
      return o.desc ? sql`${by} DESC` : by;
    });
    parts.push(sql`ORDER BY ${join(keys, ', ')}`);
  }
  parts.push(sql`LIMIT ${plan.limit}`);
  return join(parts, '\n');
}

function ordinal(n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new Error(`not an ordinal: ${n}`);
  return String(n);
}

const PG_TYPE: Record<ValueType, string> = {
  string: 'text',
  oid: 'text',
  long: 'int8',
  double: 'float8',
  boolean: 'boolean',
  timestamp: 'timestamptz',
};

/** The alias of a table's helper join (`t1m` for the master of `t1`). */
function auxAlias(alias: string, storage: Storage, aux: Aux): string {
  if (aux === 'self') return alias;
  const join = storage.aux[aux];
  if (!join) throw new Error(`storage ${storage.kind} has no ${aux}`);
  return `${alias}${join.suffix}`;
}

function at(alias: string, storage: Storage, ref: ColumnRef): Sql {
  return ident(auxAlias(alias, storage, ref.aux), ref.column);
}

type LinkCond = Extract<SqlCond, { k: 'link' }>;

/**
 * The FROM clause, and the link conditions it took over from WHERE. Without outer joins, the
 * tables are listed along their links, from the first: each next table through a link row
 * joined to a table already listed. A link of one class in a table whose unique key allows one
 * row per class and pair of ends is then an inner join, which repeats no row, instead of an
 * `EXISTS`. Written that way, PostgreSQL follows the path (change orders, then their activities,
 * then the activities' parts) where its estimates cannot tell the orders apart; as `EXISTS`, it
 * looked the activities up again after fanning out to their parts.
 */
function from(tables: PlannedTable[], where: SqlCond[]): { source: Sql; joined: Set<SqlCond> } {
  const joined = new Set<SqlCond>();
  if (tables.some((t) => t.outer)) return { source: withOuter(tables), joined };
  const aliases = new Set(tables.map((t) => t.alias));
  const links = where.filter(
    (c): c is LinkCond =>
      c.k === 'link' &&
      c.storage.roles?.unique === true &&
      c.classes.length === 1 &&
      c.a !== c.b &&
      aliases.has(c.a) &&
      aliases.has(c.b),
  );
  const out: Sql[] = [];
  const listed = new Set<string>();
  const pending = [...tables];
  while (pending.length) {
    let next = 0;
    let via: LinkCond | undefined;
    for (let i = 0; i < pending.length && !via; i++) {
      const alias = pending[i].alias;
      via = links.find(
        (l) => !joined.has(l) && ((l.a === alias && listed.has(l.b)) || (l.b === alias && listed.has(l.a))),
      );
      if (via) next = i;
    }
    const [t] = pending.splice(next, 1);
    if (via) {
      joined.add(via);
      out.push(linkJoin(via, t));
    } else out.push(listed.size ? sql`CROSS JOIN ${withAux(t)}` : withAux(t));
    listed.add(t.alias);
  }
  return { source: join(out, '\n'), joined };
}

/** A link row joined to the end already listed, then the table at its other end (`to`). */
function linkJoin(c: LinkCond, table: PlannedTable): Sql {
  const roles = c.storage.roles!;
  const to = table.alias;
  const l = `${c.a}l${c.b}`;
  const [listedRole, toRole] = to === c.a ? [roles.b, roles.a] : [roles.a, roles.b];
  const listed = to === c.a ? c.b : c.a;
  const on = [inList(ident(l, 'class'), c.classes), sql`${ident(l, listedRole)} = ${ident(listed, 'id')}`];
  if (c.scope && c.storage.access.k === 'container') on.push(access(l, c.storage, c.scope));
  return sql`JOIN ${ident(c.storage.table)} ${ident(l)} ON ${join(on, ' AND ')}\nJOIN ${withAux(table, sql`${ident(to, 'id')} = ${ident(l, toRole)}`)}`;
}

function withOuter(tables: PlannedTable[]): Sql {
  const out: Sql[] = [];
  tables.forEach((t, i) => {
    const source = withAux(t);
    if (!t.outer) out.push(i === 0 ? source : sql`CROSS JOIN ${source}`);
    else {
      const on = [...t.outer.on, ...t.filters];
      const grouped = t.aux.size ? sql`(${source})` : source;
      out.push(sql`LEFT JOIN ${grouped} ON ${on.length ? and(on) : raw('TRUE')}`);
    }
  });
  return join(out, '\n');
}

/** Helper joins in dependency order: a container joined through the master comes after it. */
const AUX_ORDER: Exclude<Aux, 'self'>[] = ['master', 'container', 'creator', 'modifier'];

/** A table with its helper joins (master, container, users), each only when used. */
function withAux(t: PlannedTable, on?: Sql): Sql {
  const a = t.alias;
  const parts: Sql[] = [
    on ? sql`${ident(t.storage.table)} ${ident(a)} ON ${on}` : sql`${ident(t.storage.table)} ${ident(a)}`,
  ];
  const needed = new Set(t.aux);
  for (const aux of AUX_ORDER) {
    const j = t.storage.aux[aux];
    if (needed.has(aux) && j && j.from.aux !== 'self') needed.add(j.from.aux);
  }
  for (const aux of AUX_ORDER) {
    if (!needed.has(aux)) continue;
    const j = t.storage.aux[aux]!;
    const alias = auxAlias(a, t.storage, aux);
    parts.push(
      sql`${raw(j.inner ? 'JOIN' : 'LEFT JOIN')} ${ident(j.table)} ${ident(alias)} ON ${ident(alias, 'id')} = ${at(a, t.storage, j.from)}`,
    );
  }
  return join(parts, ' ');
}

function and(conds: SqlCond[]): Sql {
  return conds.length === 1 ? cond(conds[0]) : sql`(${join(conds.map(cond), ' AND ')})`;
}

function cond(c: SqlCond): Sql {
  switch (c.k) {
    case 'and':
      return and(c.parts);
    case 'or':
      return c.parts.length === 1 ? cond(c.parts[0]) : sql`(${join(c.parts.map(cond), ' OR ')})`;
    case 'cmp':
      return sql`${expr(c.left)} ${raw(c.op)} ${expr(c.right)}`;
    case 'like': {
      const like = sql`${expr(c.left)} ${raw(c.not ? 'NOT LIKE' : 'LIKE')} ${expr(c.right)}`;
      const range = likeRange(c);
      if (!range) return like;
      const bound = (value: string): SqlExpr => ({ k: 'val', value, type: 'string' });
      return sql`(${like} AND ${expr(c.left)} ~>=~ ${expr(bound(range.lo))} AND ${expr(c.left)} ~<~ ${expr(bound(range.hi))})`;
    }
    case 'null':
      return sql`${expr(c.e)} ${raw(c.not ? 'IS NOT NULL' : 'IS NULL')}`;
    case 'in':
      if (c.values.length === 0) return raw(c.not ? 'TRUE' : 'FALSE');
      return sql`${expr(c.e)} ${raw(c.not ? 'NOT IN' : 'IN')} (${join(c.values.map(expr), ', ')})`;
    case 'const':
      return raw(c.value ? 'TRUE' : 'FALSE');
    case 'class':
      return inList(at(c.alias, c.storage, c.storage.classColumn!), c.classes);
    case 'softType':
      return inList(at(c.alias, c.storage, c.storage.softTypeColumn!), c.types);
    case 'access':
      return access(c.alias, c.storage, c.scope);
    case 'link':
      return link(c);
  }
}

function inList(column: Sql, values: readonly string[]): Sql {
  if (values.length === 0) return raw('FALSE');
  return values.length === 1 ? sql`${column} = ${values[0]}` : sql`${column} IN (${join([...values])})`;
}

/** A link between two aliases: a usage link, a link row, or a file pointing to its holder. */
function link(c: Extract<SqlCond, { k: 'link' }>): Sql {
  const roles = c.storage.roles!;
  if (c.storage.kind === 'holderToContent') return sql`${ident(c.b, roles.a)} = ${ident(c.a, 'id')}`;
  const l = `${c.a}l${c.b}`;
  const parts = [
    inList(ident(l, 'class'), c.classes),
    sql`${ident(l, roles.a)} = ${ident(c.a, 'id')}`,
    sql`${ident(l, roles.b)} = ${ident(c.b, 'id')}`,
  ];
  if (c.scope && c.storage.access.k === 'container') parts.push(access(l, c.storage, c.scope));
  return sql`EXISTS (SELECT 1 FROM ${ident(c.storage.table)} ${ident(l)} WHERE ${join(parts, ' AND ')})`;
}

/** Rows the caller may read, inside the SQL. */
function access(a: string, storage: Storage, scope: AccessScope): Sql {
  let ids: Sql;
  if ('memberOf' in scope) {
    // The containers PermissionsService.readableContainerIds gives a non-administrator: those
    // it is a member of, in any role. Looked up here, in the query's own snapshot.
    ids = sql`ANY(ARRAY(SELECT "container_id" FROM "memberships" WHERE "user_id" = ${scope.memberOf}::int4))`;
  } else {
    if (scope.length === 0) ids = raw('ANY(ARRAY[]::int4[])');
    else ids = sql`ANY(${[...scope]}::int4[])`;
  }
  const rule = storage.access;
  switch (rule.k) {
    case 'all':
      return raw('TRUE');
    case 'container': {
      const column = rule.at.aux === 'self' ? ident(a, rule.at.column) : at(a, storage, rule.at);
      if (!('memberOf' in scope) && scope.length === 0 && !rule.nullReadable) return raw('FALSE');
      return rule.nullReadable ? sql`(${column} IS NULL OR ${column} = ${ids})` : sql`${column} = ${ids}`;
    }
    case 'holder': {
      if (!('memberOf' in scope) && scope.length === 0) return raw('FALSE');
      const hi = ident(`${a}h`);
      const hm = ident(`${a}hm`);
      return sql`EXISTS (SELECT 1 FROM "iterations" ${hi} JOIN "masters" ${hm} ON ${hm}."id" = ${hi}."master_id" WHERE ${hi}."id" = ${ident(a, rule.column)} AND ${hm}."container_id" = ${ids})`;
    }
  }
}

/**
 * A JSON key read as its type: a value of another JSON type, or one that does not fit the type
 * (a fraction for a long, a number past the range, a text that is no date), reads as NULL.
 */
function jsonValue(doc: Sql, key: string, type: ValueType): Sql {
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

function computed(name: Extract<SqlExpr, { k: 'computed' }>['name'], t: ComputedTable): Sql {
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
    case 'folderPath':
      return sql`('/' || ${ident(auxAlias(a, t.storage, 'container'), 'name')})`;
    case 'containerName':
      return ident(auxAlias(a, t.storage, 'container'), 'name');
    case 'formatName':
      return sql`coalesce(${labelCase(ident(a, 'mime_type'), FORMATS)}, ${ident(a, 'mime_type')})`;
  }
}

function expr(e: SqlExpr): Sql {
  switch (e.k) {
    case 'col':
      return ident(e.alias, e.column);
    case 'val':
      return sql`${e.value instanceof Date ? e.value.toISOString() : e.value}::${raw(PG_TYPE[e.type])}`;
    case 'json': {
      const value = jsonValue(ident(e.alias, e.column), e.key, e.type);
      if (!e.fallback) return value;
      return sql`coalesce(${value}, ${jsonValue(ident(e.fallback.alias, e.fallback.column), e.key, e.type)})`;
    }
    case 'computed':
      return computed(e.name, e.table);
    case 'call':
      return call(e.fn, e.args.map(expr));
  }
}

function call(fn: Extract<SqlExpr, { k: 'call' }>['fn'], a: Sql[]): Sql {
  switch (fn) {
    case 'UPPER':
      return sql`upper(${a[0]})`;
    case 'LOWER':
      return sql`lower(${a[0]})`;
    case 'CONCAT':
      return sql`concat(${join(a, ', ')})`;
    case 'SUBSTRING':
      return sql`substring(${a[0]} from (${a[1]})::int4 for (${a[2]})::int4)`;
    case 'LENGTH':
      return sql`length(${a[0]})::int8`;
    case 'ADD':
      return sql`(${a[0]} + ${a[1]})`;
    case 'SUBTRACT':
      return sql`(${a[0]} - ${a[1]})`;
    case 'ADD_DAYS':
      return sql`(${a[0]} + (${a[1]}) * interval '1 day')`;
    case 'SUBTRACT_DAYS':
      return sql`(${a[0]} - (${a[1]}) * interval '1 day')`;
    case 'SYSDATE':
      return raw('statement_timestamp()');
    case 'COUNT':
      return sql`count(${a[0]})::int8`;
    case 'COUNT_ALL':
      return raw('count(*)::int8');
    case 'MIN':
      return sql`min(${a[0]})`;
    case 'MAX':
      return sql`max(${a[0]})`;
    case 'SUM':
      return sql`sum(${a[0]})::float8`;
    case 'SUM_LONG':
      return sql`sum(${a[0]})::int8`;
    case 'AVG':
      return sql`avg(${a[0]})::float8`;
    case 'TEXT':
      return sql`(${a[0]})::text`;
  }
}
