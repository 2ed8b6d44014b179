import type { Condition, Operand, QmlTemplate } from '../validate/ast.js';
import { QmlError, QmlLimitError } from '../qml-error.js';
import { DEFAULT_LIMITS, PG_MAX_RESULT_COLUMNS, type QmlLimits } from '../qml-limits.js';
import { STORAGES, type StorageKind } from '../../catalog/storage.js';
import { keepsOid, type ReferenceDef } from '../../catalog/catalog-model.js';
import { ExpressionPlanner } from './plan-expr.js';
import { masterOid, oidFromColumns } from './plan-oid.js';
import type {
  AccessScope,
  Plan,
  PlannedTable,
  PlanRequest,
  PlanResult,
  ReadableScope,
  SqlCond,
  SqlExpr,
} from './plan-types.js';
import { plannedTables, unionColumn } from './plan-tables.js';
import { requestParams, RequestReader, type ParamSource } from './request.js';
import { keepsOnlyLatest, tablesAskingForWorkingCopies } from './plan-working.js';

export type { PlanRequest, PlanResult, ReadableScope } from './plan-types.js';

/** Turns a validated template and one request into a Plan of generated aliases and bound values. */
export function planQuery(t: QmlTemplate, req: PlanRequest, limits: Partial<QmlLimits> = {}): PlanResult {
  const reader = new RequestReader(req, false);
  return planWith(t, reader, requestParams(reader), limits);
}

/** planQuery reading the request through `reader`, the parameter values through `params`. */
export function planWith(
  t: QmlTemplate,
  reader: RequestReader,
  params: ParamSource,
  limits: Partial<QmlLimits> = {},
): PlanResult {
  return new Planner(t, reader, params, limits.maxListValues ?? DEFAULT_LIMITS.maxListValues).run();
}

/** What the readable scope of a request looks like in SQL (its ids are bound values). */
function scopeShape(r: ReadableScope): string {
  if (r === null) return 'all';
  if ('memberOf' in r) return 'memberOf';
  return r.length === 0 ? 'none' : 'list';
}

/** A request's readable scope as the plan uses it (recording: with how to read another's). */
function accessScope(r: ReadableScope, recording: boolean): AccessScope | null {
  if (r === null) return null;
  if ('memberOf' in r) {
    return recording ? { memberOf: r.memberOf, of: (q) => (q.readable as { memberOf: number }).memberOf } : r;
  }
  return recording ? { ids: r, of: (q) => q.readable as readonly number[] } : { ids: r };
}

/** The tables, joins, row order and result of one execution; expressions: ExpressionPlanner. */
class Planner {
  private readonly tables: PlannedTable[];
  private readonly expr: ExpressionPlanner;
  private readable: { scope: AccessScope | null } | null = null;

  constructor(
    private readonly t: QmlTemplate,
    private readonly reader: RequestReader,
    params: ParamSource,
    maxListValues: number,
  ) {
    this.tables = plannedTables(t);
    this.expr = new ExpressionPlanner(t, reader, params, this.tables, maxListValues);
  }

  run(): PlanResult {
    const t = this.t;
    const select = t.select.map((s) => {
      const { e, type } = this.expr.operand(s.expr, null);
      return { heading: s.heading, type, objectClass: s.objectClass, expr: e };
    });
    const aggregate = t.select.map((s) => s.expr.k === 'fn' && s.expr.fn.aggregate);
    const groupBy = t.group ? aggregate.flatMap((a, i) => (a ? [] : [i + 1])) : [];

    this.tableFilters();
    const conjuncts: { cond: SqlCond; tables: Set<number> }[] = [];
    const collect = (c: Condition) => {
      if (c.k === 'and') c.parts.forEach(collect);
      else conjuncts.push({ cond: this.expr.condition(c), tables: this.roots(tablesOf(c)) });
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
    this.dropRepeatedWorkingFilters(where);

    const orderBy: Plan['orderBy'] = t.orderBy.map((o) => ({ by: { ordinal: o.item + 1 }, desc: o.desc }));
    const ordered = new Set(t.orderBy.map((o) => o.item + 1));
    if (t.distinct || t.group || aggregate.some(Boolean)) {
      // Output rows are unique over their columns (or group keys): those break every tie.
      const keys = t.group ? groupBy : aggregate.every(Boolean) ? [] : select.map((_, i) => i + 1);
      for (const k of keys) if (!ordered.has(k)) orderBy.push({ by: { ordinal: k }, desc: false });
    } else {
      // The ids of the tables `from` names (a union's rows: its arm and id); a table a path
      // reaches has one row at most per row of the table it hangs off.
      for (const tb of this.top()) {
        const keys = tb.union ? ['u', 'id'] : ['id'];
        for (const column of keys) orderBy.push({ by: { expr: { k: 'col', alias: tb.alias, column } }, desc: false });
      }
    }
    // Order keys that are not selected are result columns too, for PostgreSQL.
    const columns = select.length + orderBy.filter((o) => 'expr' in o.by).length;
    if (columns > PG_MAX_RESULT_COLUMNS) {
      throw new QmlLimitError(
        t.select[0].path.replace(/\/[^/]*$/, ''),
        `${select.length} items and the ids of ${this.top().length} tables (the row order) make ${columns} result columns, more than the ${PG_MAX_RESULT_COLUMNS} PostgreSQL allows`,
        'maxSelectItems',
      );
    }

    const plan: Plan = {
      distinct: t.distinct,
      select,
      groupBy,
      from: this.fromOrder(),
      where: [
        ...this.top()
          .filter((tb) => !tb.outer)
          .flatMap((tb) => tb.filters),
        ...where,
      ],
      orderBy,
      limit: this.reader.req.limit,
      ...(this.reader.recording ? { limitOf: (r: PlanRequest) => r.limit } : {}),
    };
    const used = t.parameters.map((p) => this.expr.used.get(p.name) ?? null);
    const parameters = t.parameters.map((p, i) => ({ name: p.name, value: used[i]?.now ?? null }));
    return { plan, parameters, used };
  }

  /** The tables `from` names, in declaration order. */
  private top(): PlannedTable[] {
    return this.tables.filter((_, i) => !this.t.tables[i].via);
  }

  /** The tables `from` names that tables of property paths hang off. */
  private roots(tables: Set<number>): Set<number> {
    const out = new Set<number>();
    for (let i of tables) {
      while (this.t.tables[i].via) i = this.t.tables[i].via!.from;
      out.add(i);
    }
    return out;
  }

  private tableFilters(): void {
    const scope = this.scope();
    const covered = this.coveredByHolder();
    const asking = tablesAskingForWorkingCopies(this.t);
    this.t.tables.forEach((decl, i) => {
      const tb = this.tables[i];
      const working = asking.has(i) ? this.holder() : null;
      if (tb.union) for (const arm of tb.union.arms) this.filters(arm, null, scope, false, working);
      else this.filters(tb, decl.type.softTypes, scope, covered.has(i), working);
      if (decl.outerJoinTo !== null) tb.outer = { on: [] };
      if (decl.via) {
        // Joined on the reference and its own filters: a row it may not give leaves it null.
        const { from, ref, arms } = decl.via;
        const left = this.referenceValue(from, ref, arms);
        if (tb.union) for (const arm of tb.union.arms) arm.filters.unshift(this.references(left, ref, arm, true));
        else {
          const path = this.tables[from].paths.find((p) => p.table === tb)!;
          path.on.push(this.references(left, ref, tb, true), ...tb.filters);
        }
      }
    });
  }

  /**
   * A table's class, soft type, access and working-copy filters; `holder`: the caller's id where
   * the template asks for the working copies they hold (plan-working.ts).
   */
  private filters(
    tb: PlannedTable,
    softTypes: readonly string[] | null,
    scope: AccessScope | null,
    covered: boolean,
    holder: SqlExpr | null,
  ) {
    const storage = tb.storage;
    // A class column narrows the rows unless the class covers every class of its storage.
    if (storage.classColumn) {
      this.expr.use(tb, storage.classColumn);
      tb.filters.push({ k: 'class', alias: tb.alias, storage, classes: tb.classValues });
    }
    if (softTypes && storage.softTypeColumn) {
      this.expr.use(tb, storage.softTypeColumn);
      tb.filters.push({ k: 'softType', alias: tb.alias, storage, types: softTypes });
    }
    if (scope !== null && storage.access.k !== 'all' && !covered) {
      if (storage.access.k === 'container') this.expr.use(tb, storage.access.at);
      tb.filters.push({ k: 'access', alias: tb.alias, storage, scope });
    }
    if (storage.kind === 'iteration') {
      if (holder) this.expr.use(tb, { aux: 'master', column: 'checked_out_by' });
      tb.filters.push({ k: 'working', alias: tb.alias, storage, holder });
    } else if (storage.access.k === 'holder' && !covered && scope === null) {
      // With an access filter, that filter's look-up of the holder iteration checks it (sql.ts);
      // covered, the holder iteration's own filter does.
      tb.filters.push({ k: 'working', alias: tb.alias, storage, holder: null });
    }
  }

  /** The caller's user id, bound (recording: read from each request). */
  private holder(): SqlExpr {
    const id = this.reader.read((r) => r.user.id);
    return { k: 'val', value: id.now, type: 'long', ...(id.of ? { of: id.of } : {}) };
  }

  /** The working filters of the tables `from` names that WHERE already keeps to latest iterations. */
  private dropRepeatedWorkingFilters(where: readonly SqlCond[]): void {
    for (const tb of this.top()) {
      if (tb.union || tb.outer) continue;
      const i = tb.filters.findIndex((f) => f.k === 'working');
      if (i >= 0 && where.some((c) => keepsOnlyLatest(c, tb.alias, (e) => this.isTrue(e)))) tb.filters.splice(i, 1);
    }
  }

  /** Whether an expression is the bound value true; of a request's value, asked (a shape read). */
  private isTrue(e: SqlExpr): boolean {
    if (e.k !== 'val') return false;
    const of = e.of;
    return of ? this.reader.ask((r) => of(r) === true) : e.value === true;
  }

  /** The containers the caller may read; null: every row (administrators with bypassAccessControl). */
  private scope(): AccessScope | null {
    if (this.readable) return this.readable.scope;
    const bypass = this.t.bypassAccessControl && this.reader.ask((r) => r.user.admin);
    if (!bypass) this.reader.ask((r) => scopeShape(r.readable));
    this.readable = { scope: bypass ? null : accessScope(this.reader.req.readable, this.reader.recording) };
    return this.readable.scope;
  }

  /**
   * Links and content items are readable through their holder iteration, iterations through
   * their master. Joined to it by equality, and that iteration (master) filtered in WHERE (not
   * outer-joined), every row they appear in already has a readable holder: their own access
   * check would repeat it, once per row.
   */
  private coveredByHolder(): Set<number> {
    const covered = new Set<number>();
    const filtered = (i: number, kind: StorageKind) =>
      !this.tables[i].union && this.t.tables[i].type.storage.kind === kind && this.t.tables[i].outerJoinTo === null;
    const filteredIteration = (i: number) => filtered(i, 'iteration');
    for (const j of this.t.joins) {
      if (j.k === 'reference' && !this.tables[j.from].union) {
        const access = this.t.tables[j.from].type.storage.access;
        const from = j.ref.from;
        const viaHolder =
          'at' in from && from.at.aux === 'self' && access.k === 'holder' && from.at.column === access.column;
        if (viaHolder && filteredIteration(j.to)) covered.add(j.from);
      }
      if (j.k === 'link' && !j.none && j.link.storage === 'holderToContent' && filteredIteration(j.a)) covered.add(j.b);
      if (j.k === 'link' && j.link.storage === 'masterIteration' && filtered(j.a, 'master')) covered.add(j.b);
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
    const top = this.t.tables.flatMap((d, i) => (d.via ? [] : [i]));
    for (const i of top) {
      if (this.t.tables[i].outerJoinTo === null) {
        placed.add(i);
        order.push(this.tables[i]);
      }
    }
    if (order.length === 0)
      throw new QmlError(this.t.tables[0].path, 'every table is outer-joined: one must be joined normally');
    let progress = true;
    while (placed.size < top.length && progress) {
      progress = false;
      for (const i of top) {
        if (!placed.has(i) && placed.has(this.t.tables[i].outerJoinTo!)) {
          placed.add(i);
          order.push(this.tables[i]);
          progress = true;
        }
      }
    }
    if (placed.size < top.length) {
      const stuck = this.t.tables.find((d, i) => !d.via && !placed.has(i))!;
      throw new QmlError(stuck.path, 'outer joins form a cycle');
    }
    return order;
  }

  private join(j: QmlTemplate['joins'][number]): { cond: SqlCond; tables: Set<number> } {
    if (j.k === 'reference') {
      return { cond: this.referenceCond(j.from, j.to, j.ref, j.arms, false), tables: new Set([j.from, j.to]) };
    }
    if (j.none) return { cond: { k: 'const', value: false }, tables: new Set([j.a, j.b]) };
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

  /** Table `from`'s reference (of each arm of a union: `arms`) pointing to table `to`. */
  private referenceCond(
    from: number,
    to: number,
    ref: ReferenceDef,
    arms: readonly ReferenceDef[] | undefined,
    unique: boolean,
  ): SqlCond {
    return this.references(this.referenceValue(from, ref, arms), ref, this.tables[to], unique);
  }

  /** What table `from`'s reference keeps: of a union, the column its arms give it. */
  private referenceValue(from: number, ref: ReferenceDef, arms: readonly ReferenceDef[] | undefined): SqlExpr {
    const src = this.tables[from];
    if (!src.union) return this.refValue(src, ref);
    const defs = arms ?? [ref];
    return unionColumn(src, `reference ${JSON.stringify(defs.map((d) => d.from))}`, (arm, k) =>
      this.refValue(arm, defs[k] ?? ref),
    );
  }

  /**
   * That a reference's value `left` names a row of `dst`: an id equals its id; an OID its OID,
   * so a row of another table with the same id never matches. An OID kept as class and id
   * columns names a master for business objects: an iteration joined to it matches by its
   * master's OID, unless the join must give one row at most (`unique`: the target of a property
   * path), which also compares the OID's id with the row's, for PostgreSQL to find it by its key.
   */
  private references(left: SqlExpr, ref: ReferenceDef, dst: PlannedTable, unique: boolean): SqlCond {
    const id: SqlExpr = { k: 'col', alias: dst.alias, column: 'id' };
    if (!keepsOid(ref)) return { k: 'cmp', op: '=', left, right: id };
    const byMaster = !unique && !dst.union && dst.storage.kind === 'iteration' && 'oidColumns' in ref.from;
    const right = byMaster ? masterOid((r) => this.expr.column(dst, r.aux, r.column)) : this.expr.computed(dst, 'oid');
    const same: SqlCond = { k: 'cmp', op: '=', left, right };
    if (!unique) return same;
    return {
      k: 'and',
      parts: [{ k: 'cmp', op: '=', left: id, right: { k: 'call', fn: 'OID_ID', args: [left] } }, same],
    };
  }

  /** The target's id (or OID) as a table's reference keeps it. */
  private refValue(tb: PlannedTable, ref: ReferenceDef): SqlExpr {
    const from = ref.from;
    if ('at' in from) return this.expr.column(tb, from.at.aux, from.at.column);
    if ('json' in from) return this.expr.jsonExpr(tb, from.json.at, from.json.key, 'long');
    if ('oidJson' in from) return this.expr.jsonExpr(tb, from.oidJson.at, from.oidJson.key, 'string');
    // A soft type's attribute holding the target's id (src/catalog/type-info.ts).
    if ('typeInfo' in from) return this.expr.typeInfo(tb, from.typeInfo, 'long');
    return oidFromColumns((r) => this.expr.column(tb, r.aux, r.column), from.oidColumns);
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
