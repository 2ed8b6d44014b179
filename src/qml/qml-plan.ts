import type { Condition, Operand, QmlTemplate } from './qml-ast.js';
import { operandType } from './qml-ast.js';
import { QmlError, QmlLimitError } from './qml-error.js';
import type { ComparisonOperator } from './qml-functions.js';
import { DEFAULT_LIMITS, PG_MAX_RESULT_COLUMNS, type QmlLimits } from './qml-limits.js';
import type { PropertyDef } from '../catalog/catalog-model.js';
import { STORAGES, type Aux, type ColumnRef } from '../catalog/storage.js';
import type { CmpOp, ComputedTable, InternalFunction, Plan, PlannedTable, SqlCond, SqlExpr } from './qml-plan-types.js';
import { isNumeric, type ValueType } from './qml-types.js';
import { likePattern } from '../common/wildcard.js';
import { convertValue, expandMacro, type MacroContext } from './qml-values.js';

/** What one execution adds to a template: parameter values, the caller, limits. */
export interface PlanRequest {
  /** Request parameters by name (URL parameters or form fields). */
  values: Readonly<Record<string, string>>;
  user: { id: number; name: string; admin: boolean };
  /**
   * Containers the caller may read: null for all (administrators), a list of ids, or the
   * containers the user is a member of, looked up inside the query itself.
   */
  readable: ReadableScope;
  now: Date;
  /** Rows to fetch at most (the service asks for one more than it returns, to see a cut). */
  limit: number;
}

/** See PlanRequest.readable. */
export type ReadableScope = null | readonly number[] | { memberOf: number };

export interface PlanResult {
  plan: Plan;
  /** The value each declared parameter had in this execution (null: never used). */
  parameters: { name: string; value: string | null }[];
}

const CMP: Record<Exclude<ComparisonOperator, 'like' | 'notLike'>, CmpOp> = {
  equal: '=',
  notEqual: '<>',
  lessThan: '<',
  lessThanOrEqual: '<=',
  greaterThan: '>',
  greaterThanOrEqual: '>=',
};

/** Turns a validated template and one request into a Plan of generated aliases and bound values. */
export function planQuery(t: QmlTemplate, req: PlanRequest, limits: Partial<QmlLimits> = {}): PlanResult {
  return new Planner(t, req, limits.maxListValues ?? DEFAULT_LIMITS.maxListValues).run();
}

interface Typed {
  e: SqlExpr;
  type: ValueType;
}

class Planner {
  private readonly tables: PlannedTable[];
  private readonly macro: MacroContext;
  private readonly used = new Map<string, string>();
  /** Values in the in-lists planned so far. */
  private listValues = 0;

  constructor(
    private readonly t: QmlTemplate,
    private readonly req: PlanRequest,
    private readonly maxListValues: number,
  ) {
    this.macro = { userId: req.user.id, userName: req.user.name, now: req.now };
    this.tables = t.tables.map((decl, i) => ({
      alias: `t${i + 1}`,
      storage: decl.type.storage,
      aux: new Set(),
      filters: [],
      outer: null,
    }));
  }

  run(): PlanResult {
    const t = this.t;
    const select = t.select.map((s) => {
      const { e, type } = this.operand(s.expr, null);
      return { heading: s.heading, type, objectClass: s.objectClass, expr: e };
    });
    const aggregate = t.select.map((s) => s.expr.k === 'fn' && s.expr.fn.aggregate);
    const groupBy = t.group ? aggregate.flatMap((a, i) => (a ? [] : [i + 1])) : [];

    this.tableFilters();
    const conjuncts: { cond: SqlCond; tables: Set<number> }[] = [];
    const collect = (c: Condition) => {
      if (c.k === 'and') c.parts.forEach(collect);
      else conjuncts.push({ cond: this.condition(c), tables: tablesOf(c) });
    };
    if (t.where) collect(t.where);
    for (const j of t.joins) conjuncts.push(this.join(j));

    // An outer table's join condition: the conditions relating exactly it and its partner.
    const where: SqlCond[] = [];
    for (const c of conjuncts) {
      const target = this.outerTarget(c.tables);
      if (target !== null) this.tables[target].outer!.on.push(c.cond);
      else where.push(c.cond);
    }

    const orderBy: Plan['orderBy'] = t.orderBy.map((o) => ({ by: { ordinal: o.item + 1 }, desc: o.desc }));
    const ordered = new Set(t.orderBy.map((o) => o.item + 1));
    if (t.distinct || t.group || aggregate.some(Boolean)) {
      // Output rows are unique over their columns (or group keys): those break every tie.
      const keys = t.group ? groupBy : aggregate.every(Boolean) ? [] : select.map((_, i) => i + 1);
      for (const k of keys) if (!ordered.has(k)) orderBy.push({ by: { ordinal: k }, desc: false });
    } else {
      for (const tb of this.tables)
        orderBy.push({ by: { expr: { k: 'col', alias: tb.alias, column: 'id' } }, desc: false });
    }
    // Order keys that are not selected are result columns too, for PostgreSQL.
    const columns = select.length + orderBy.filter((o) => 'expr' in o.by).length;
    if (columns > PG_MAX_RESULT_COLUMNS) {
      throw new QmlLimitError(
        t.select[0].path.replace(/\/[^/]*$/, ''),
        `${select.length} items and the ids of ${t.tables.length} tables (the row order) make ${columns} result columns, more than the ${PG_MAX_RESULT_COLUMNS} PostgreSQL allows`,
        'maxSelectItems',
      );
    }

    const plan: Plan = {
      distinct: t.distinct,
      select,
      groupBy,
      from: this.fromOrder(),
      where: [...this.tables.filter((tb) => !tb.outer).flatMap((tb) => tb.filters), ...where],
      orderBy,
      limit: this.req.limit,
    };
    const parameters = t.parameters.map((p) => ({ name: p.name, value: this.used.get(p.name) ?? null }));
    return { plan, parameters };
  }

  private tableFilters(): void {
    const scope = this.scope();
    const covered = this.coveredByHolder();
    this.t.tables.forEach((decl, i) => {
      const tb = this.tables[i];
      const { storage, softTypes } = decl.type;
      const classes = decl.cls.classValues;
      // A class column narrows the rows unless the class covers every class of its storage.
      if (storage.classColumn) {
        this.use(i, storage.classColumn);
        tb.filters.push({ k: 'class', alias: tb.alias, storage, classes });
      }
      if (softTypes && storage.softTypeColumn) {
        this.use(i, storage.softTypeColumn);
        tb.filters.push({ k: 'softType', alias: tb.alias, storage, types: softTypes });
      }
      if (scope !== null && storage.access.k !== 'all' && !covered.has(i)) {
        if (storage.access.k === 'container') this.use(i, storage.access.at);
        tb.filters.push({ k: 'access', alias: tb.alias, storage, scope });
      }
      if (decl.outerJoinTo !== null) tb.outer = { on: [] };
    });
  }

  /** The containers the caller may read; null: every row (administrators with bypassAccessControl). */
  private scope(): Exclude<ReadableScope, null> | null {
    const bypass = this.t.bypassAccessControl && this.req.user.admin;
    return bypass ? null : this.req.readable;
  }

  private use(table: number, ref: ColumnRef): void {
    if (ref.aux !== 'self') this.tables[table].aux.add(ref.aux);
  }

  /**
   * Links and content items are readable through their holder iteration. Joined to it by
   * equality, and that iteration filtered in WHERE (not outer-joined), every row they appear in
   * already has a readable holder: their own access check would repeat it, once per row.
   */
  private coveredByHolder(): Set<number> {
    const covered = new Set<number>();
    const filteredIteration = (i: number) =>
      this.t.tables[i].type.storage.kind === 'iteration' && this.t.tables[i].outerJoinTo === null;
    for (const j of this.t.joins) {
      if (j.k === 'reference') {
        const access = this.t.tables[j.from].type.storage.access;
        const from = j.ref.from;
        const viaHolder =
          'at' in from && from.at.aux === 'self' && access.k === 'holder' && from.at.column === access.column;
        if (viaHolder && filteredIteration(j.to)) covered.add(j.from);
      }
      if (j.k === 'link' && j.link.storage === 'holderToContent' && filteredIteration(j.a)) covered.add(j.b);
    }
    return covered;
  }

  /** The outer-joined table whose ON clause takes a condition over these tables, if any. */
  private outerTarget(tables: Set<number>): number | null {
    if (tables.size !== 2) return null;
    const [a, b] = [...tables];
    if (this.t.tables[a].outerJoinTo === b) return a;
    if (this.t.tables[b].outerJoinTo === a) return b;
    return null;
  }

  /** Inner tables in declaration order, then each outer table after the table it joins. */
  private fromOrder(): PlannedTable[] {
    const placed = new Set<number>();
    const order: PlannedTable[] = [];
    this.t.tables.forEach((d, i) => {
      if (d.outerJoinTo === null) {
        placed.add(i);
        order.push(this.tables[i]);
      }
    });
    if (order.length === 0)
      throw new QmlError(this.t.tables[0].path, 'every table is outer-joined: one must be joined normally');
    let progress = true;
    while (placed.size < this.t.tables.length && progress) {
      progress = false;
      this.t.tables.forEach((d, i) => {
        if (!placed.has(i) && placed.has(d.outerJoinTo!)) {
          placed.add(i);
          order.push(this.tables[i]);
          progress = true;
        }
      });
    }
    if (placed.size < this.t.tables.length) {
      const stuck = this.t.tables.find((_, i) => !placed.has(i))!;
      throw new QmlError(stuck.path, 'outer joins form a cycle');
    }
    return order;
  }

  private join(j: QmlTemplate['joins'][number]): { cond: SqlCond; tables: Set<number> } {
    if (j.k === 'reference') {
      const from = j.ref.from;
      const target = this.tables[j.to];
      let cond: SqlCond;
      if ('at' in from) {
        const left = this.column(j.from, from.at.aux, from.at.column);
        cond = { k: 'cmp', op: '=', left, right: { k: 'col', alias: target.alias, column: 'id' } };
      } else if ('json' in from) {
        const left = this.jsonExpr(j.from, from.json.at, from.json.key, 'long');
        cond = { k: 'cmp', op: '=', left, right: { k: 'col', alias: target.alias, column: 'id' } };
      } else {
        // An OID kept as text: compared with the target's OID, so a row of another table with
        // the same id never matches.
        const left = this.jsonExpr(j.from, from.oidJson.at, from.oidJson.key, 'string');
        cond = { k: 'cmp', op: '=', left, right: this.computed(j.to, 'oid') };
      }
      return { cond, tables: new Set([j.from, j.to]) };
    }
    const a = this.tables[j.a].alias;
    const b = this.tables[j.b].alias;
    const linkStorage = STORAGES[j.link.storage!];
    const cond: SqlCond = {
      k: 'link',
      storage: linkStorage,
      classes: j.link.classValues,
      a,
      b,
      scope: this.scope(),
    };
    return { cond, tables: new Set([j.a, j.b]) };
  }

  private column(table: number, aux: Aux, column: string): SqlExpr {
    const tb = this.tables[table];
    if (aux !== 'self') tb.aux.add(aux);
    const suffix = aux === 'self' ? '' : tb.storage.aux[aux]!.suffix;
    return { k: 'col', alias: `${tb.alias}${suffix}`, column };
  }

  private jsonExpr(table: number, at: ColumnRef, key: string, type: ValueType): SqlExpr {
    const col = this.column(table, at.aux, at.column) as Extract<SqlExpr, { k: 'col' }>;
    return { k: 'json', alias: col.alias, column: col.column, key, type };
  }

  private computed(table: number, name: Extract<PropertyDef, { computed: unknown }>['computed']): SqlExpr {
    const tb = this.tables[table];
    const decl = this.t.tables[table];
    const storage = tb.storage;
    for (const ref of [
      storage.classColumn,
      storage.softTypeColumn,
      storage.oid === 'catalogClass' ? null : storage.oid.classAt,
    ])
      if (ref) this.use(table, ref);
    if (name === 'folderPath' || name === 'containerName') tb.aux.add('container');
    const t: ComputedTable = { alias: tb.alias, storage, cls: decl.cls.name, labels: this.labels(table) };
    return { k: 'computed', name, table: t };
  }

  private labels(table: number): ComputedTable['labels'] {
    const decl = this.t.tables[table];
    const cat = this.t.catalog;
    const classes = decl.cls.classValues.map((c): [string, string] => [c, cat.findClass(c)?.displayName ?? c]);
    if (classes.length === 0) classes.push([decl.cls.name, decl.cls.displayName]);
    const softTypes = cat
      .listSoftTypes()
      .filter((st) => cat.isA(st.cls, decl.cls.name) || cat.isA(decl.cls.name, st.cls))
      .map((st): [string, string] => [st.name, st.displayName]);
    return { classes, softTypes };
  }

  private property(table: number, p: PropertyDef): SqlExpr {
    if ('at' in p) return this.column(table, p.at.aux, p.at.column);
    if ('json' in p) {
      const e = this.jsonExpr(table, p.json.at, p.json.key, p.type) as Extract<SqlExpr, { k: 'json' }>;
      if (!p.json.fallback) return e;
      const f = this.column(table, p.json.fallback.aux, p.json.fallback.column) as Extract<SqlExpr, { k: 'col' }>;
      return { ...e, fallback: { alias: f.alias, column: f.column } };
    }
    return this.computed(table, p.computed);
  }

  /** An operand as a typed expression; constants and parameters take the `expected` type. */
  private operand(o: Operand, expected: ValueType | null): Typed {
    switch (o.k) {
      case 'prop':
        return { e: this.property(o.table, o.prop), type: o.prop.type };
      case 'const': {
        const text = o.isMacro ? expandMacro(o.text, this.macro, o.path) : o.text;
        return this.value(text, expected ?? o.hint ?? 'string', `value`, o.path);
      }
      case 'param': {
        const text = this.paramText(o.name, o.path);
        const decl = this.t.parameters.find((p) => p.name === o.name)!;
        return this.value(text, expected ?? decl.hint ?? 'string', `parameter "${o.name}" value`, o.path);
      }
      case 'fn':
        return this.call(o);
    }
  }

  private paramText(name: string, path: string): string {
    const decl = this.t.parameters.find((p) => p.name === name)!;
    let text: string;
    if (Object.prototype.hasOwnProperty.call(this.req.values, name)) text = this.req.values[name];
    else if (decl.default)
      text = decl.default.isMacro ? expandMacro(decl.default.text, this.macro, decl.path) : decl.default.text;
    else throw new QmlError(path, `parameter "${name}" has no value`);
    this.used.set(name, text);
    return text;
  }

  private value(text: string, type: ValueType, what: string, path: string): Typed {
    // A decimal compared with an integer property is compared as a number, not rejected.
    if (type === 'long' && !/^\s*[+-]?\d+\s*$/.test(text) && !text.trim().startsWith('OR:')) {
      return { e: { k: 'val', value: convertValue(text, 'double', what, path), type: 'double' }, type: 'double' };
    }
    return { e: { k: 'val', value: convertValue(text, type, what, path), type }, type };
  }

  private text(x: Typed): SqlExpr {
    return x.type === 'string' || x.type === 'oid' ? x.e : { k: 'call', fn: 'TEXT', args: [x.e] };
  }

  private call(o: Extract<Operand, { k: 'fn' }>): Typed {
    const name = o.fn.name;
    const call = (fn: InternalFunction, args: SqlExpr[], type: ValueType): Typed => ({
      e: { k: 'call', fn, args },
      type,
    });
    const arg = (i: number, expected: ValueType | null) => this.operand(o.args[i], expected);
    switch (name) {
      case 'UPPER':
      case 'LOWER':
      case 'LENGTH':
        return call(name, [this.text(arg(0, 'string'))], name === 'LENGTH' ? 'long' : 'string');
      case 'CONCAT':
        return call(
          'CONCAT',
          o.args.map((_, i) => this.text(arg(i, 'string'))),
          'string',
        );
      case 'SUBSTRING':
        return call('SUBSTRING', [this.text(arg(0, 'string')), arg(1, 'long').e, arg(2, 'long').e], 'string');
      case 'SYSDATE':
        return call('SYSDATE', [], 'timestamp');
      case 'ADD':
      case 'SUBTRACT': {
        const [ta, tb] = o.args.map(operandType);
        if (ta === 'timestamp' || tb === 'timestamp') {
          const tsFirst = ta === 'timestamp';
          const ts = arg(tsFirst ? 0 : 1, 'timestamp');
          const days = arg(tsFirst ? 1 : 0, 'double');
          this.numeric(days, o.args[tsFirst ? 1 : 0].path, name);
          return call(name === 'ADD' ? 'ADD_DAYS' : 'SUBTRACT_DAYS', [ts.e, days.e], 'timestamp');
        }
        const a = arg(0, ta ?? tb ?? 'double');
        const b = arg(1, a.type);
        this.numeric(a, o.args[0].path, name);
        this.numeric(b, o.args[1].path, name);
        return call(name, [a.e, b.e], a.type === 'long' && b.type === 'long' ? 'long' : 'double');
      }
      case 'COUNT':
        return o.args.length === 0 ? call('COUNT_ALL', [], 'long') : call('COUNT', [arg(0, 'string').e], 'long');
      case 'MIN':
      case 'MAX': {
        const a = arg(0, null);
        return call(name, [a.e], a.type);
      }
      case 'SUM': {
        const a = arg(0, 'double');
        this.numeric(a, o.args[0].path, name);
        return a.type === 'long' ? call('SUM_LONG', [a.e], 'long') : call('SUM', [a.e], 'double');
      }
      case 'AVG': {
        const a = arg(0, 'double');
        this.numeric(a, o.args[0].path, name);
        return call('AVG', [a.e], 'double');
      }
    }
  }

  private numeric(x: Typed, path: string, fn: string): void {
    if (!isNumeric(x.type)) throw new QmlError(path, `${fn} needs a number here, not a ${x.type}`);
  }

  private condition(c: Condition): SqlCond {
    switch (c.k) {
      case 'and':
      case 'or':
        return { k: c.k, parts: c.parts.map((p) => this.condition(p)) };
      case 'null':
        return { k: 'null', not: c.not, e: this.operand(c.operand, 'string').e };
      case 'in': {
        const left = this.operand(c.operand, null);
        const expected = operandType(c.operand) ?? 'string';
        const values: SqlExpr[] = [];
        for (const item of c.items) {
          const src = item.source;
          const text =
            src.k === 'param'
              ? this.paramText(src.name, src.path)
              : src.isMacro
                ? expandMacro(src.text, this.macro, src.path)
                : src.text;
          const what = src.k === 'param' ? `parameter "${src.name}" value` : 'value';
          const parts = text
            .split(item.delimiter)
            .map((s) => s.trim())
            .filter((s) => s !== '');
          this.listValues += parts.length;
          if (this.listValues > this.maxListValues) {
            throw new QmlLimitError(
              c.path,
              `the in-lists hold more than ${this.maxListValues} values in all (the limit)`,
              'maxListValues',
            );
          }
          for (const part of parts) values.push(this.fold(this.value(part, expected, what, src.path)));
        }
        return { k: 'in', not: c.not, e: this.fold(left), values };
      }
      case 'cmp': {
        const lt = operandType(c.left);
        const rt = operandType(c.right);
        if (c.op === 'like' || c.op === 'notLike') {
          const left = this.text(this.operand(c.left, 'string'));
          const right = rt === null ? this.likeValue(c.right) : this.text(this.operand(c.right, 'string'));
          const fold = (e: SqlExpr) => this.fold({ e, type: 'string' });
          return { k: 'like', not: c.op === 'notLike', left: fold(left), right: fold(right) };
        }
        const left = this.operand(c.left, rt);
        const right = this.operand(c.right, lt ?? left.type);
        if (left.type === 'string' && right.type === 'string')
          return { k: 'cmp', op: CMP[c.op], left: this.fold(left), right: this.fold(right) };
        return { k: 'cmp', op: CMP[c.op], left: left.e, right: right.e };
      }
    }
  }

  /** A text compared in a caseInsensitive template: lower case on both sides. */
  private fold(x: Typed): SqlExpr {
    return this.t.caseInsensitive && x.type === 'string' ? { k: 'call', fn: 'LOWER', args: [x.e] } : x.e;
  }

  private likeValue(o: Operand): SqlExpr {
    const typed = this.operand(o, 'string');
    const v = (typed.e as Extract<SqlExpr, { k: 'val' }>).value as string;
    return { k: 'val', value: likePattern(v, 'qml'), type: 'string' };
  }
}

/** The tables a condition refers to. */
function tablesOf(c: Condition): Set<number> {
  const out = new Set<number>();
  const op = (o: Operand): void => {
    if (o.k === 'prop') out.add(o.table);
    else if (o.k === 'fn') o.args.forEach(op);
  };
  const walk = (x: Condition): void => {
    switch (x.k) {
      case 'and':
      case 'or':
        x.parts.forEach(walk);
        break;
      case 'cmp':
        op(x.left);
        op(x.right);
        break;
      default:
        op(x.operand);
    }
  };
  walk(c);
  return out;
}
