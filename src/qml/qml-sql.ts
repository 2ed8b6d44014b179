import { Prisma } from '../generated/prisma/client.js';
import type { Plan, PlannedTable, SqlCond, SqlExpr } from './qml-plan-types.js';
import type { SourceKind } from './qml-registry.js';
import type { ValueType } from './qml-types.js';

/**
 * Renders a Plan as one parameterised Prisma.sql query. Identifiers come only from the
 * registry's constants and generated aliases (checked against a pattern before use); every
 * value is a bound parameter.
 */
export function renderSql(plan: Plan): Prisma.Sql {
  const items = plan.select.map((s, i) => Prisma.sql`${expr(s.expr)} AS ${id(`c${i + 1}`)}`);
  const parts: Prisma.Sql[] = [
    Prisma.sql`SELECT ${plan.distinct ? Prisma.raw('DISTINCT ') : Prisma.empty}${Prisma.join(items, ', ')}`,
    Prisma.sql`FROM ${from(plan.from)}`,
  ];
  if (plan.where.length) parts.push(Prisma.sql`WHERE ${and(plan.where)}`);
  if (plan.groupBy.length) parts.push(Prisma.raw(`GROUP BY ${plan.groupBy.map(ordinal).join(', ')}`));
  if (plan.orderBy.length) {
    const keys = plan.orderBy.map((o) => {
      const by = 'ordinal' in o.by ? Prisma.raw(ordinal(o.by.ordinal)) : expr(o.by.expr);
      return o.desc ? Prisma.sql`${by} DESC` : by;
    });
    parts.push(Prisma.sql`ORDER BY ${Prisma.join(keys, ', ')}`);
  }
  parts.push(Prisma.sql`LIMIT ${plan.limit}`);
  return Prisma.join(parts, '\n', '', '');
}

const NAME = /^[a-z][a-z0-9_]*$/;

/** A quoted identifier; only registry names and generated aliases get here. */
function id(name: string): Prisma.Sql {
  if (!NAME.test(name)) throw new Error(`not an identifier: ${name}`);
  return Prisma.raw(`"${name}"`);
}

function ref(alias: string, column: string): Prisma.Sql {
  if (!NAME.test(alias) || !NAME.test(column)) throw new Error(`not an identifier: ${alias}.${column}`);
  return Prisma.raw(`"${alias}"."${column}"`);
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

const TABLE: Record<SourceKind, string> = {
  iteration: 'iterations',
  master: 'masters',
  usageLink: 'usage_links',
  content: 'content_items',
  holderToContent: 'content_items',
  container: 'containers',
  user: 'users',
  template: 'report_templates',
};

function from(tables: PlannedTable[]): Prisma.Sql {
  const out: Prisma.Sql[] = [];
  tables.forEach((t, i) => {
    const source = withAux(t);
    if (!t.outer) out.push(i === 0 ? source : Prisma.sql`CROSS JOIN ${source}`);
    else {
      const on = [...t.outer.on, ...t.filters];
      const grouped = t.aux.size ? Prisma.sql`(${source})` : source;
      out.push(Prisma.sql`LEFT JOIN ${grouped} ON ${on.length ? and(on) : Prisma.raw('TRUE')}`);
    }
  });
  return Prisma.join(out, '\n');
}

/** A table with its helper joins: the master of an iteration, container and users on demand. */
function withAux(t: PlannedTable): Prisma.Sql {
  const a = t.alias;
  const parts: Prisma.Sql[] = [Prisma.sql`${id(TABLE[t.kind])} ${id(a)}`];
  if (t.aux.has('master'))
    parts.push(Prisma.sql`JOIN "masters" ${id(`${a}m`)} ON ${ref(`${a}m`, 'id')} = ${ref(a, 'master_id')}`);
  if (t.aux.has('container')) {
    parts.push(
      Prisma.sql`LEFT JOIN "containers" ${id(`${a}c`)} ON ${ref(`${a}c`, 'id')} = ${ref(`${a}m`, 'container_id')}`,
    );
  }
  if (t.aux.has('creator'))
    parts.push(Prisma.sql`LEFT JOIN "users" ${id(`${a}u`)} ON ${ref(`${a}u`, 'id')} = ${ref(a, 'created_by')}`);
  if (t.aux.has('modifier'))
    parts.push(Prisma.sql`LEFT JOIN "users" ${id(`${a}v`)} ON ${ref(`${a}v`, 'id')} = ${ref(a, 'modified_by')}`);
  return Prisma.join(parts, ' ');
}

function and(conds: SqlCond[]): Prisma.Sql {
  return conds.length === 1 ? cond(conds[0]) : Prisma.sql`(${Prisma.join(conds.map(cond), ' AND ')})`;
}

function cond(c: SqlCond): Prisma.Sql {
  switch (c.k) {
    case 'and':
      return and(c.parts);
    case 'or':
      return c.parts.length === 1 ? cond(c.parts[0]) : Prisma.sql`(${Prisma.join(c.parts.map(cond), ' OR ')})`;
    case 'cmp':
      return Prisma.sql`${expr(c.left)} ${Prisma.raw(c.op)} ${expr(c.right)}`;
    case 'like':
      return Prisma.sql`${expr(c.left)} ${Prisma.raw(c.not ? 'NOT LIKE' : 'LIKE')} ${expr(c.right)}`;
    case 'null':
      return Prisma.sql`${expr(c.e)} ${Prisma.raw(c.not ? 'IS NOT NULL' : 'IS NULL')}`;
    case 'in':
      if (c.values.length === 0) return Prisma.raw(c.not ? 'TRUE' : 'FALSE');
      return Prisma.sql`${expr(c.e)} ${Prisma.raw(c.not ? 'NOT IN' : 'IN')} (${Prisma.join(c.values.map(expr), ', ')})`;
    case 'const':
      return Prisma.raw(c.value ? 'TRUE' : 'FALSE');
    case 'class': {
      const column = c.kind === 'iteration' ? ref(`${c.alias}m`, 'class') : ref(c.alias, 'class');
      return c.classes.length === 1
        ? Prisma.sql`${column} = ${c.classes[0]}`
        : Prisma.sql`${column} IN (${Prisma.join([...c.classes])})`;
    }
    case 'access':
      return access(c);
    case 'usage': {
      const l = id(`${c.a}l${c.b}`);
      return Prisma.sql`EXISTS (SELECT 1 FROM "usage_links" ${l} WHERE ${l}."class" = ${c.cls} AND ${l}."parent_id" = ${ref(c.a, 'id')} AND ${l}."child_id" = ${ref(c.b, 'id')})`;
    }
  }
}

/** Rows of containers the caller may read, inside the SQL. */
function access(c: Extract<SqlCond, { k: 'access' }>): Prisma.Sql {
  let ids: Prisma.Sql;
  if ('memberOf' in c.scope) {
    // The containers PermissionsService.readableContainerIds gives a non-administrator: those
    // it is a member of, in any role. Looked up here, in the query's own snapshot.
    ids = Prisma.sql`ANY(ARRAY(SELECT "container_id" FROM "memberships" WHERE "user_id" = ${c.scope.memberOf}::int4))`;
  } else {
    if (c.scope.length === 0) return Prisma.raw('FALSE');
    ids = Prisma.sql`ANY(${[...c.scope]}::int4[])`;
  }
  const a = c.alias;
  switch (c.kind) {
    case 'iteration':
      return Prisma.sql`${ref(`${a}m`, 'container_id')} = ${ids}`;
    case 'master':
    case 'template':
      return Prisma.sql`${ref(a, 'container_id')} = ${ids}`;
    case 'container':
      return Prisma.sql`${ref(a, 'id')} = ${ids}`;
    case 'usageLink':
    case 'content':
    case 'holderToContent': {
      const holder = ref(a, c.kind === 'usageLink' ? 'parent_id' : 'iteration_id');
      const hi = id(`${a}h`);
      const hm = id(`${a}hm`);
      return Prisma.sql`EXISTS (SELECT 1 FROM "iterations" ${hi} JOIN "masters" ${hm} ON ${hm}."id" = ${hi}."master_id" WHERE ${hi}."id" = ${holder} AND ${hm}."container_id" = ${ids})`;
    }
    case 'user':
      return Prisma.raw('TRUE');
  }
}

const OID_PREFIX: Partial<Record<SourceKind, string>> = {
  content: 'OR:wt.content.ApplicationData:',
  holderToContent: 'OR:wt.content.HolderToContent:',
  user: 'OR:wt.org.WTUser:',
  template: 'OR:wt.query.template.ReportTemplate:',
};

function expr(e: SqlExpr): Prisma.Sql {
  switch (e.k) {
    case 'col':
      return ref(e.alias, e.column);
    case 'val':
      return Prisma.sql`${e.value instanceof Date ? e.value.toISOString() : e.value}::${Prisma.raw(PG_TYPE[e.type])}`;
    case 'attr': {
      const json = ref(e.alias, 'attributes');
      if (e.type === 'string') return Prisma.sql`(${json} ->> ${e.key})`;
      const kind = e.type === 'boolean' ? 'boolean' : 'number';
      const cast = e.type === 'boolean' ? 'boolean' : e.type === 'long' ? 'numeric::int8' : 'float8';
      return Prisma.sql`(CASE WHEN jsonb_typeof(${json} -> ${e.key}) = ${kind} THEN (${json} ->> ${e.key})::${Prisma.raw(cast)} END)`;
    }
    case 'oid': {
      const idText = Prisma.sql`${ref(e.alias, 'id')}::text`;
      const fixed = OID_PREFIX[e.kind];
      if (fixed) return Prisma.sql`(${fixed} || ${idText})`;
      const cls = e.kind === 'iteration' ? ref(`${e.alias}m`, 'class') : ref(e.alias, 'class');
      const suffix = e.kind === 'master' ? 'Master:' : ':';
      return Prisma.sql`('OR:' || ${cls} || ${suffix} || ${idText})`;
    }
    case 'computed':
      switch (e.name) {
        case 'iterationDisplay':
          return Prisma.sql`(${ref(e.alias, 'version')} || '.' || ${ref(e.alias, 'iteration')}::text)`;
        case 'displayType':
          return Prisma.sql`(CASE ${ref(`${e.alias}m`, 'class')} WHEN 'wt.doc.WTDocument' THEN 'Document' WHEN 'wt.epm.EPMDocument' THEN 'CAD Document' WHEN 'wt.part.WTPart' THEN 'Part' END)`;
        case 'folderPath':
          return Prisma.sql`('/' || ${ref(`${e.alias}c`, 'name')})`;
      }
      break;
    case 'call':
      return call(e.fn, e.args.map(expr));
  }
  throw new Error('unknown expression');
}

function call(fn: Extract<SqlExpr, { k: 'call' }>['fn'], a: Prisma.Sql[]): Prisma.Sql {
  switch (fn) {
    case 'UPPER':
      return Prisma.sql`upper(${a[0]})`;
    case 'LOWER':
      return Prisma.sql`lower(${a[0]})`;
    case 'CONCAT':
      return Prisma.sql`concat(${Prisma.join(a, ', ')})`;
    case 'SUBSTRING':
      return Prisma.sql`substring(${a[0]} from (${a[1]})::int4 for (${a[2]})::int4)`;
    case 'LENGTH':
      return Prisma.sql`length(${a[0]})::int8`;
    case 'ADD':
      return Prisma.sql`(${a[0]} + ${a[1]})`;
    case 'SUBTRACT':
      return Prisma.sql`(${a[0]} - ${a[1]})`;
    case 'ADD_DAYS':
      return Prisma.sql`(${a[0]} + (${a[1]}) * interval '1 day')`;
    case 'SUBTRACT_DAYS':
      return Prisma.sql`(${a[0]} - (${a[1]}) * interval '1 day')`;
    case 'SYSDATE':
      return Prisma.raw('statement_timestamp()');
    case 'COUNT':
      return Prisma.sql`count(${a[0]})::int8`;
    case 'COUNT_ALL':
      return Prisma.raw('count(*)::int8');
    case 'MIN':
      return Prisma.sql`min(${a[0]})`;
    case 'MAX':
      return Prisma.sql`max(${a[0]})`;
    case 'SUM':
      return Prisma.sql`sum(${a[0]})::float8`;
    case 'SUM_LONG':
      return Prisma.sql`sum(${a[0]})::int8`;
    case 'AVG':
      return Prisma.sql`avg(${a[0]})::float8`;
    case 'TEXT':
      return Prisma.sql`(${a[0]})::text`;
  }
}
