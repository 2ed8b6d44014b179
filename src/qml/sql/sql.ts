import { ident, join, raw, sql, type Sql } from '../../catalog/sql.js';
import type { Aux, Storage } from '../../catalog/storage.js';
import type { AccessScope, Plan, PlannedTable, PlannedUnion, SqlCond, SqlExpr } from '../plan/plan-types.js';
import { likePrefixRange } from '../../common/wildcard.js';
import type { BoundValue } from '../parse/values.js';
import { Rebind } from '../plan/request.js';
import { at, auxAlias, computed, jsonValue } from './sql-computed.js';
import { likeRange } from './sql-like.js';
import { PG_TYPE, renderCall } from './sql-functions.js';

/**
 * Renders a Plan as one parameterised query (SQL text and bound values). Identifiers come only
 * from the storage whitelist (src/catalog/storage.ts) and generated aliases, checked by `ident`;
 * every value is a bound parameter. A plan made while recording (plan/request.ts) carries, for
 * each value of the request, how to read it from another request (`of`): those render as Rebind
 * values, the rest as they are, so text and constants serve every request of the same shape.
 */
export { genericPlanFits } from './sql-like.js';

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
  parts.push(sql`LIMIT ${plan.limitOf ? new Rebind(plan.limitOf) : plan.limit}`);
  return join(parts, '\n');
}

function ordinal(n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new Error(`not an ordinal: ${n}`);
  return String(n);
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
    else out.push(leftJoin(t, [...t.outer.on, ...t.filters]));
  });
  return join(out, '\n');
}

/** Helper joins in dependency order: a container joined through the master comes after it. */
const AUX_ORDER: Exclude<Aux, 'self'>[] = ['master', 'container', 'creator', 'modifier'];

/** A LEFT JOIN of a table with its own joins, on `on`. */
function leftJoin(t: PlannedTable, on: SqlCond[]): Sql {
  const source = withAux(t);
  const grouped = t.aux.size || t.paths.length ? sql`(${source})` : source;
  return sql`LEFT JOIN ${grouped} ON ${on.length ? and(on) : raw('TRUE')}`;
}

/**
 * A table with its helper joins (master, container, users), each only when used, then the
 * tables property paths reach from it, each LEFT-joined on its reference and filters.
 */
function withAux(t: PlannedTable, on?: Sql): Sql {
  const a = t.alias;
  const base = t.union ? sql`(${union(t.union)}) ${ident(a)}` : sql`${ident(t.storage.table)} ${ident(a)}`;
  const parts: Sql[] = [on ? sql`${base} ON ${on}` : base];
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
  parts.push(...pathJoins(t));
  return join(parts, ' ');
}

/** The tables paths reach from a table; a union's arms each on its own, then what hangs off it. */
function pathJoins(t: PlannedTable): Sql[] {
  return t.paths.flatMap((p) =>
    p.table.union?.joined
      ? [...p.table.union.arms.map((arm) => leftJoin(arm, arm.filters)), ...pathJoins(p.table)]
      : [leftJoin(p.table, p.on)],
  );
}

/** The rows of a union: each arm's columns, from its table filtered by its class and access. */
function union(u: PlannedUnion): Sql {
  const arms = u.arms.map((arm, k) => {
    const columns = u.columns.map((c) => sql`${expr(c.exprs[k])} AS ${ident(c.name)}`);
    const parts = [sql`SELECT ${join(columns, ', ')}`, sql`FROM ${withAux(arm)}`];
    if (arm.filters.length) parts.push(sql`WHERE ${and(arm.filters)}`);
    return join(parts, ' ');
  });
  return join(arms, '\nUNION ALL\n');
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
      // The pattern's shape (likeShape) is the cache's: another request's pattern has a range too.
      const of = c.right.k === 'val' ? c.right.of : undefined;
      const bound = (value: string, end: 'lo' | 'hi'): SqlExpr => ({
        k: 'val',
        value,
        type: 'string',
        ...(of ? { of: (r) => likePrefixRange(of(r) as string)![end] } : {}),
      });
      return sql`(${like} AND ${expr(c.left)} ~>=~ ${expr(bound(range.lo, 'lo'))} AND ${expr(c.left)} ~<~ ${expr(bound(range.hi, 'hi'))})`;
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
    case 'working':
      return working(c);
    case 'link':
      return link(c);
  }
}

function inList(column: Sql, values: readonly string[]): Sql {
  if (values.length === 0) return raw('FALSE');
  return values.length === 1 ? sql`${column} = ${values[0]}` : sql`${column} IN (${join([...values])})`;
}

/**
 * A link between two aliases: a usage link, a link row, or a row pointing to its role A end (a
 * file to its holder, an iteration to its master).
 */
function link(c: Extract<SqlCond, { k: 'link' }>): Sql {
  const roles = c.storage.roles!;
  if (roles.rowIsB) return sql`${ident(c.b, roles.a)} = ${ident(c.a, 'id')}`;
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
    const user = scope.of ? new Rebind(scope.of) : scope.memberOf;
    // The containers PermissionsService.readableContainerIds gives a non-administrator: those
    // it has a role in, its own or a group's (access_roles). Looked up here, in the query's
    // own snapshot.
    ids = sql`ANY(ARRAY(SELECT "container_id" FROM "access_roles" WHERE "user_id" = ${user}::int4))`;
  } else {
    const of = scope.of;
    if (scope.ids.length === 0) ids = raw('ANY(ARRAY[]::int4[])');
    else ids = sql`ANY(${of ? new Rebind((r) => [...of(r)]) : [...scope.ids]}::int4[])`;
  }
  const rule = storage.access;
  switch (rule.k) {
    case 'all':
      return raw('TRUE');
    case 'container': {
      const column = rule.at.aux === 'self' ? ident(a, rule.at.column) : at(a, storage, rule.at);
      if ('ids' in scope && scope.ids.length === 0 && !rule.nullReadable) return raw('FALSE');
      return rule.nullReadable ? sql`(${column} IS NULL OR ${column} = ${ids})` : sql`${column} = ${ids}`;
    }
    case 'holder': {
      if ('ids' in scope && scope.ids.length === 0) return raw('FALSE');
      const hi = ident(`${a}h`);
      const hm = ident(`${a}hm`);
      // A working copy's files and links are its holder's draft: not readable here (plan-working.ts).
      return sql`EXISTS (SELECT 1 FROM "iterations" ${hi} JOIN "masters" ${hm} ON ${hm}."id" = ${hi}."master_id" WHERE ${hi}."id" = ${ident(a, rule.column)} AND NOT ${hi}."working" AND ${hm}."container_id" = ${ids})`;
    }
  }
}

/**
 * No working copy of a check-out (plan/plan-working.ts): an iteration that is none, or one the
 * caller holds; a row kept on an iteration whose holder is none (found by its primary key).
 */
function working(c: Extract<SqlCond, { k: 'working' }>): Sql {
  const a = c.alias;
  if (c.storage.kind === 'iteration') {
    const none = sql`NOT ${ident(a, 'working')}`;
    if (!c.holder) return none;
    return sql`(${none} OR ${at(a, c.storage, { aux: 'master', column: 'checked_out_by' })} = ${expr(c.holder)})`;
  }
  const rule = c.storage.access;
  if (rule.k !== 'holder') throw new Error(`storage ${c.storage.kind} keeps no working copies`);
  const w = ident(`${a}w`);
  return sql`NOT EXISTS (SELECT 1 FROM "iterations" ${w} WHERE ${w}."id" = ${ident(a, rule.column)} AND ${w}."working")`;
}

function expr(e: SqlExpr): Sql {
  switch (e.k) {
    case 'col':
      return ident(e.alias, e.column);
    case 'val': {
      const of = e.of;
      const value = of ? new Rebind((r) => boundValue(of(r))) : boundValue(e.value);
      return sql`${value}::${raw(PG_TYPE[e.type])}`;
    }
    case 'json': {
      const value = jsonValue(ident(e.alias, e.column), e.key, e.type);
      if (!e.fallback) return value;
      return sql`coalesce(${value}, ${jsonValue(ident(e.fallback.alias, e.fallback.column), e.key, e.type)})`;
    }
    case 'computed':
      return computed(e.name, e.table);
    case 'call':
      return renderCall(e.fn, e.args.map(expr), e.type);
    case 'case':
      // No case at all (a typeInfo column no soft type maps): NULL of the value's type.
      if (e.whens.length === 0) return raw(`NULL::${PG_TYPE[e.type ?? 'string']}`);
      return sql`(CASE ${join(
        e.whens.map((w) => sql`WHEN ${cond(w.when)} THEN ${expr(w.then)}`),
        ' ',
      )} END)`;
  }
}

function boundValue(v: BoundValue): string | number | boolean {
  return v instanceof Date ? v.toISOString() : v;
}
