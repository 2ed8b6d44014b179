import type {
  Condition,
  InItem,
  JoinDecl,
  Operand,
  OrderItem,
  ParameterDecl,
  QmlTemplate,
  SelectItem,
  TableDecl,
} from './ast.js';
import type { Catalog } from '../../catalog/catalog.js';
import { OBJECT_ITSELF } from '../../catalog/catalog.js';
import { standardCatalog } from '../../catalog/catalog-load.js';
import { QmlError, QmlLimitError, QmlProblems, type QmlProblem } from '../qml-error.js';
import { isComparisonOperator } from '../functions/functions.js';
import { DEFAULT_LIMITS, type QmlLimits } from '../qml-limits.js';
import type { QmlElement } from '../parse/parse.js';
import { bool, fail, one, only, optional, requiredAttr } from '../parse/element-rules.js';
import { checkComparable, defaultHeading, functionOf, propertyChain, propertyHint } from './validate-rules.js';
import { typeFunctionCall } from './validate-rules.js';
import { typeFromHint } from '../qml-types.js';
import { resolveJoin } from './validate-joins.js';
import { PropertyPaths } from './validate-paths.js';

/**
 * Checks a parsed document against the dialect and the catalog and resolves it into a
 * QmlTemplate. Every element, attribute value, class, property path, operator, function, alias
 * and parameter reference is checked here. Problems of separate parts (tables, select items,
 * conditions, joins, order items) are all collected: one problem is thrown as a QmlError naming
 * its element, several as QmlProblems. A size limit stops at once (QmlLimitError).
 */
export function validateQml(root: QmlElement, limits: Partial<QmlLimits> = {}, catalog?: Catalog): QmlTemplate {
  return new Validator({ ...DEFAULT_LIMITS, ...limits }, catalog ?? standardCatalog()).template(root);
}

/** Thrown where an earlier problem (an unresolved table) makes further checks meaningless. */
class Skip extends Error {}

class Validator {
  private tables: TableDecl[] = [];
  private aliases = new Map<string, number>();
  private params = new Map<string, ParameterDecl>();
  /** Values of the constant in-lists so far (parameters add theirs when the query is planned). */
  private listValues = 0;
  private readonly problems: QmlProblem[] = [];
  private readonly warnings: { path: string; message: string }[] = [];
  /** Aliases of tables whose class did not resolve: what uses them is not checked further. */
  private readonly broken = new Set<string>();
  /** Headings of select items that did not resolve. */
  private readonly brokenHeadings = new Set<string>();
  private readonly paths: PropertyPaths;

  constructor(
    private readonly limits: QmlLimits,
    private readonly catalog: Catalog,
  ) {
    this.paths = new PropertyPaths(catalog, this.tables, limits.maxTables, (path, message) =>
      this.warnings.push({ path, message }),
    );
  }

  /** Runs a check, keeping its problem and going on; limits and unexpected errors stop everything. */
  private attempt<T>(check: () => T): T | undefined {
    try {
      return check();
    } catch (e) {
      if (e instanceof Skip) return undefined;
      if (e instanceof QmlError && !(e instanceof QmlLimitError)) {
        if (e instanceof QmlProblems) this.problems.push(...e.problems);
        else this.problems.push({ path: e.path, reason: e.reason });
        return undefined;
      }
      throw e;
    }
  }

  template(root: QmlElement): QmlTemplate {
    const t = this.attempt(() => this.resolve(root));
    if (this.problems.length === 1) throw new QmlError(this.problems[0].path, this.problems[0].reason);
    if (this.problems.length > 1) throw new QmlProblems(this.problems);
    return t!;
  }

  private resolve(root: QmlElement): QmlTemplate {
    only(root, ['parameter', 'statement']);
    const bypassAccessControl = bool(root, 'bypassAccessControl');
    for (const p of root.children.filter((c) => c.name === 'parameter')) this.attempt(() => this.parameter(p));
    const statement = one(root, 'statement');
    only(statement, ['query']);
    const query = one(statement, 'query');
    only(query, ['select', 'from', 'where', 'orderBy', 'linkJoin', 'referenceJoin']);
    // Tables first: select, where and joins refer to their aliases.
    this.from(one(query, 'from'));
    const selectEl = one(query, 'select');
    const select = this.select(selectEl);
    const distinct = bool(selectEl, 'distinct');
    const group = bool(selectEl, 'group');
    if (select.length === selectEl.children.length) this.attempt(() => this.checkAggregates(selectEl, select, group));
    const whereEl = optional(query, 'where');
    const where = whereEl ? (this.attempt(() => this.where(whereEl)) ?? null) : null;
    const orderByEl = optional(query, 'orderBy');
    const orderBy = orderByEl ? this.orderBy(orderByEl, select) : [];
    const joins: JoinDecl[] = [];
    const ref = optional(query, 'referenceJoin');
    if (ref) joins.push(...this.joins(ref, 'reference'));
    const link = optional(query, 'linkJoin');
    if (link) joins.push(...this.joins(link, 'link'));
    if (this.problems.length === 0) this.paths.finish();
    return {
      catalog: this.catalog,
      warnings: this.warnings,
      bypassAccessControl,
      caseInsensitive: bool(root, 'caseInsensitive'),
      parameters: [...this.params.values()],
      distinct,
      group,
      select,
      tables: this.tables,
      where,
      orderBy,
      joins,
    };
  }

  private parameter(el: QmlElement): void {
    only(el, ['parameterDefault']);
    const name = requiredAttr(el, 'name');
    if (this.params.has(name)) fail(el.path, `parameter "${name}" is declared twice`);
    const d = optional(el, 'parameterDefault');
    if (d) only(d, []);
    this.params.set(name, {
      name,
      declaredType: el.attrs.type?.trim() ?? '',
      hint: typeFromHint(el.attrs.type),
      default: d ? { text: d.text, isMacro: bool(d, 'isMacro') } : null,
      path: el.path,
    });
  }

  private from(el: QmlElement): void {
    only(el, ['table']);
    if (el.children.length === 0) fail(el.path, 'from needs at least one table');
    const max = this.limits.maxTables;
    if (el.children.length > max) {
      throw new QmlLimitError(el.path, `${el.children.length} tables, more than the limit of ${max}`, 'maxTables');
    }
    const outer: [number, string, string][] = [];
    for (const t of el.children) {
      this.attempt(() => {
        only(t, []);
        const alias = requiredAttr(t, 'alias');
        if (this.aliases.has(alias) || this.broken.has(alias)) fail(t.path, `alias "${alias}" is declared twice`);
        const found = this.paths.table(t.text, alias, t.path);
        if (typeof found === 'string') {
          this.broken.add(alias);
          fail(t.path, found);
        }
        const decl = found as Exclude<typeof found, string>;
        if (decl.type.warning) this.warnings.push({ path: t.path, message: decl.type.warning });
        this.aliases.set(alias, this.tables.length);
        const o = t.attrs.outerJoinAlias?.trim();
        if (o) outer.push([this.tables.length, o, t.path]);
        this.tables.push(decl);
      });
    }
    for (const [i, o, path] of outer) {
      this.attempt(() => {
        const to = this.aliases.get(o);
        if (to === undefined && this.broken.has(o)) throw new Skip();
        if (to === undefined) fail(`${path}/@outerJoinAlias`, `alias "${o}" is not declared in from`);
        if (to === i) fail(`${path}/@outerJoinAlias`, 'a table cannot be outer-joined to itself');
        this.tables[i].outerJoinTo = to!;
      });
    }
  }

  private alias(el: QmlElement, attr = 'alias'): number {
    const alias = requiredAttr(el, attr);
    const i = this.aliases.get(alias);
    if (i === undefined && this.broken.has(alias)) throw new Skip();
    if (i === undefined) fail(el.path, `alias "${alias}" is not declared in from`);
    return i!;
  }

  private select(el: QmlElement): SelectItem[] {
    only(el, ['column', 'object', 'function', 'constant']);
    if (el.children.length === 0) fail(el.path, 'select needs at least one item');
    const max = this.limits.maxSelectItems;
    if (el.children.length > max) {
      throw new QmlLimitError(el.path, `${el.children.length} items, more than the limit of ${max}`, 'maxSelectItems');
    }
    const items: SelectItem[] = [];
    for (const c of el.children) {
      const heading = c.attrs.heading?.trim() || defaultHeading(c);
      const expr = this.attempt(() => this.operand(c, 0));
      if (!expr) {
        this.brokenHeadings.add(heading);
        continue;
      }
      const objectClass = expr.k === 'prop' && expr.prop === OBJECT_ITSELF ? this.tables[expr.table].cls.name : null;
      items.push({ heading, expr, objectClass, path: c.path });
    }
    return items;
  }

  private checkAggregates(el: QmlElement, select: SelectItem[], group: boolean): void {
    const aggregates = select.filter((s) => s.expr.k === 'fn' && s.expr.fn.aggregate);
    if (aggregates.length === 0 || group) return;
    if (aggregates.length !== select.length) {
      fail(el.path, 'aggregate functions next to other items need select group="true"');
    }
  }

  /** Fails when an element one level deeper than `depth` would be past maxNesting. */
  private nest(el: QmlElement, depth: number): number {
    const max = this.limits.maxNesting;
    if (depth + 1 > max) {
      throw new QmlLimitError(el.path, `conditions and functions nest more than ${max} levels deep`, 'maxNesting');
    }
    return depth + 1;
  }

  /** column, object, function, constant or parameterTarget; `depth`: functions and composites around it. */
  private operand(el: QmlElement, depth: number): Operand {
    switch (el.name) {
      case 'column': {
        only(el, []);
        const table = this.alias(el);
        const path = el.text || el.attrs.propertyName?.trim() || '';
        if (!path) fail(el.path, 'a column needs a property path as its text');
        return this.paths.operand(table, path, 'column', propertyHint(el.attrs.type), el.path);
      }
      case 'object': {
        only(el, ['property']);
        const table = this.alias(el);
        const chain = propertyChain(el);
        const path = chain ?? el.attrs.propertyName?.trim() ?? '';
        return this.paths.operand(table, path, 'object', null, el.path);
      }
      case 'constant':
        only(el, []);
        return {
          k: 'const',
          text: el.text,
          isMacro: bool(el, 'isMacro'),
          hint: typeFromHint(el.attrs.type),
          path: el.path,
        };
      case 'parameterTarget': {
        only(el, []);
        const name = requiredAttr(el, 'name');
        if (!this.params.has(name)) fail(el.path, `parameter "${name}" is not declared`);
        return { k: 'param', name, path: el.path };
      }
      case 'function':
        return this.func(el, this.nest(el, depth));
      default:
        return fail(el.path, `unexpected element "${el.name}"`);
    }
  }

  private func(el: QmlElement, depth: number): Operand {
    only(el, ['column', 'object', 'function', 'constant', 'parameterTarget']);
    const def = functionOf(el);
    const args = el.children.map((c) => this.operand(c, depth));
    for (const a of args) {
      if (def.aggregate && a.k === 'fn' && a.fn.aggregate) fail(a.path, 'aggregate functions cannot be nested');
    }
    const call = typeFunctionCall(def, el.attrs.name!, args, this.params, el.path);
    return { k: 'fn', fn: def, args, type: call.result, call, path: el.path };
  }

  private where(el: QmlElement): Condition {
    only(el, ['compositeCondition', 'condition']);
    if (el.children.length !== 1) fail(el.path, 'where needs exactly one condition or compositeCondition');
    return this.condition(el.children[0], 0);
  }

  private condition(el: QmlElement, depth: number): Condition {
    if (el.name === 'compositeCondition') {
      const inner = this.nest(el, depth);
      only(el, ['compositeCondition', 'condition']);
      const type = (el.attrs.type ?? 'and').trim();
      if (type !== 'and' && type !== 'or') fail(`${el.path}/@type`, `unknown type "${type}" (and, or)`);
      if (el.children.length === 0) fail(el.path, 'compositeCondition needs at least one condition');
      const parts = el.children.map((c) => this.attempt(() => this.condition(c, inner)));
      if (parts.some((c) => c === undefined)) throw new Skip();
      return { k: type as 'and' | 'or', parts: parts as Condition[], path: el.path };
    }
    only(el, ['operand', 'operator', 'nullOperator', 'inOperator', 'inOperand']);
    const kinds = el.children.map((c) => c.name).join(',');
    const left = () => this.operandEl(el.children[0], depth);
    if (kinds === 'operand,operator,operand') {
      const opEl = el.children[1];
      only(opEl, []);
      const type = (opEl.attrs.type ?? '').trim();
      if (!isComparisonOperator(type)) return fail(opEl.path, `unknown type "${type}"`);
      const l = left();
      const r = this.operandEl(el.children[2], depth);
      checkComparable(l, r, el.path);
      return { k: 'cmp', op: type, left: l, right: r, path: el.path };
    }
    if (kinds === 'operand,nullOperator') {
      const opEl = el.children[1];
      only(opEl, []);
      const type = (opEl.attrs.type ?? '').trim();
      if (type !== 'isNull' && type !== 'isNotNull') fail(opEl.path, `unknown type "${type}" (isNull, isNotNull)`);
      return { k: 'null', not: type === 'isNotNull', operand: left(), path: el.path };
    }
    if (kinds === 'operand,inOperator,inOperand') {
      const opEl = el.children[1];
      only(opEl, []);
      const type = (opEl.attrs.type ?? '').trim();
      if (type !== 'in' && type !== 'notIn') fail(opEl.path, `unknown type "${type}" (in, notIn)`);
      return {
        k: 'in',
        not: type === 'notIn',
        operand: left(),
        items: this.inOperand(el.children[2], depth),
        path: el.path,
      };
    }
    return fail(
      el.path,
      `a condition is operand, operator, operand (or nullOperator, or inOperator and inOperand), found ${kinds || 'nothing'}`,
    );
  }

  private operandEl(el: QmlElement, depth: number): Operand {
    only(el, ['column', 'object', 'function', 'constant', 'parameterTarget']);
    if (el.children.length !== 1) fail(el.path, `an operand holds exactly one item, found ${el.children.length}`);
    const o = this.operand(el.children[0], depth);
    if (o.k === 'fn' && o.fn.aggregate) fail(o.path, 'aggregate functions are not allowed in conditions');
    return o;
  }

  private inOperand(el: QmlElement, depth: number): InItem[] {
    only(el, ['delimitedList']);
    const list = one(el, 'delimitedList');
    only(list, ['constant', 'parameterTarget']);
    if (list.children.length === 0) fail(list.path, 'delimitedList needs at least one constant or parameterTarget');
    const delimiter = list.attrs.delimiter ?? ',';
    if (delimiter === '') fail(`${list.path}/@delimiter`, 'the delimiter cannot be empty');
    const items = list.children.map((c) => ({ source: this.operand(c, depth) as InItem['source'], delimiter }));
    for (const { source } of items) {
      if (source.k === 'const') this.listValues += source.text.split(delimiter).filter((v) => v.trim() !== '').length;
    }
    if (this.listValues > this.limits.maxListValues) {
      throw new QmlLimitError(
        el.path,
        `the in-lists hold more than ${this.limits.maxListValues} values in all (the limit)`,
        'maxListValues',
      );
    }
    return items;
  }

  private orderBy(el: QmlElement, select: SelectItem[]): OrderItem[] {
    only(el, ['orderByItem']);
    const items = el.children.map((item) => this.attempt(() => this.orderByItem(item, select)));
    return items.filter((i): i is OrderItem => i !== undefined);
  }

  private orderByItem(item: QmlElement, select: SelectItem[]): OrderItem {
    {
      only(item, ['columnTarget']);
      const type = (item.attrs.type ?? 'asc').trim().toLowerCase() || 'asc';
      if (type !== 'asc' && type !== 'desc')
        fail(`${item.path}/@type`, `unknown type "${item.attrs.type}" (asc, desc)`);
      const target = one(item, 'columnTarget');
      only(target, []);
      const heading = requiredAttr(target, 'heading');
      const index = select.findIndex((s) => s.heading === heading);
      if (index < 0 && this.brokenHeadings.has(heading)) throw new Skip();
      if (index < 0) fail(target.path, `no selected item has the heading "${heading}"`);
      return { item: index, desc: type === 'desc', path: item.path };
    }
  }

  private joins(el: QmlElement, kind: 'reference' | 'link'): JoinDecl[] {
    only(el, ['join']);
    const joins = el.children.map((j) => this.attempt(() => this.join(j, kind)));
    return joins.filter((j): j is JoinDecl => j !== undefined);
  }

  private join(j: QmlElement, kind: 'reference' | 'link'): JoinDecl {
    only(j, ['aliasTarget']);
    const name = requiredAttr(j, 'name');
    if (j.children.length !== 2)
      fail(j.path, `a join names exactly two aliasTarget elements, found ${j.children.length}`);
    const [a, b] = j.children.map((t) => {
      only(t, []);
      return this.alias(t);
    });
    if (kind === 'reference' && this.paths.isUnion(a)) return this.paths.referenceJoin(name, a, b, j.path);
    const join = resolveJoin(this.catalog, kind, name, [a, b], this.tables, j.path);
    const unmapped =
      join.k === 'reference' && 'typeInfo' in join.ref.from ? join.ref.from.typeInfo.unmapped : undefined;
    if (unmapped) this.warnings.push({ path: `${j.path}/@name`, message: unmapped });
    if (join.k === 'link' && join.none) this.warnings.push({ path: j.path, message: join.none });
    return join;
  }
}
