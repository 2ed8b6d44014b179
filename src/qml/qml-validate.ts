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
} from './qml-ast.js';
import { operandType } from './qml-ast.js';
import { QmlError, QmlLimitError } from './qml-error.js';
import { findFunction, isComparisonOperator } from './qml-functions.js';
import { DEFAULT_LIMITS, type QmlLimits } from './qml-limits.js';
import type { QmlElement } from './qml-parse.js';
import { OBJECT_ITSELF, findClass, findLink, findReference, resolveDerived, resolveProperty } from './qml-registry.js';
import { isNumeric, typeFromHint, type ValueType } from './qml-types.js';

/**
 * Checks a parsed document against the dialect and resolves it into a QmlTemplate. Every
 * element, attribute value, class, property path, operator, function, alias and parameter
 * reference is checked here; the first problem is thrown as a QmlError naming the element.
 */
export function validateQml(root: QmlElement, limits: Partial<QmlLimits> = {}): QmlTemplate {
  return new Validator({ ...DEFAULT_LIMITS, ...limits }).template(root);
}

const fail = (path: string, reason: string): never => {
  throw new QmlError(path, reason);
};

function only(el: QmlElement, allowed: readonly string[]): void {
  for (const c of el.children) {
    if (!allowed.includes(c.name)) fail(c.path, `unexpected element "${c.name}" in ${el.name}`);
  }
}

function one(el: QmlElement, name: string): QmlElement {
  const found = el.children.filter((c) => c.name === name);
  if (found.length !== 1) fail(el.path, `${el.name} needs exactly one ${name} element, found ${found.length}`);
  return found[0];
}

function optional(el: QmlElement, name: string): QmlElement | null {
  const found = el.children.filter((c) => c.name === name);
  if (found.length > 1) fail(found[1].path, `${el.name} takes at most one ${name} element`);
  return found[0] ?? null;
}

function bool(el: QmlElement, attr: string): boolean {
  const v = el.attrs[attr];
  if (v === undefined || v.trim() === '') return false;
  const t = v.trim().toLowerCase();
  if (t === 'true') return true;
  if (t === 'false') return false;
  return fail(`${el.path}/@${attr}`, `"${v}" is not true or false`);
}

function requiredAttr(el: QmlElement, attr: string): string {
  const v = el.attrs[attr]?.trim();
  if (!v) fail(el.path, `attribute "${attr}" is required`);
  return v!;
}

class Validator {
  private tables: TableDecl[] = [];
  private aliases = new Map<string, number>();
  private params = new Map<string, ParameterDecl>();
  /** Values of the constant in-lists so far (parameters add theirs when the query is planned). */
  private listValues = 0;

  constructor(private readonly limits: QmlLimits) {}

  template(root: QmlElement): QmlTemplate {
    only(root, ['parameter', 'statement']);
    const bypassAccessControl = bool(root, 'bypassAccessControl');
    for (const p of root.children.filter((c) => c.name === 'parameter')) this.parameter(p);
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
    this.checkAggregates(selectEl, select, group);
    const whereEl = optional(query, 'where');
    const where = whereEl ? this.where(whereEl) : null;
    const orderByEl = optional(query, 'orderBy');
    const orderBy = orderByEl ? this.orderBy(orderByEl, select) : [];
    const joins: JoinDecl[] = [];
    const ref = optional(query, 'referenceJoin');
    if (ref) joins.push(...this.joins(ref, 'reference'));
    const link = optional(query, 'linkJoin');
    if (link) joins.push(...this.joins(link, 'link'));
    return {
      bypassAccessControl,
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
      only(t, []);
      const alias = requiredAttr(t, 'alias');
      if (this.aliases.has(alias)) fail(t.path, `alias "${alias}" is declared twice`);
      const cls = findClass(t.text);
      if (!cls) fail(t.path, `unknown class "${t.text}"`);
      this.aliases.set(alias, this.tables.length);
      const o = t.attrs.outerJoinAlias?.trim();
      if (o) outer.push([this.tables.length, o, t.path]);
      this.tables.push({ alias, cls: cls!, outerJoinTo: null, path: t.path });
    }
    for (const [i, o, path] of outer) {
      const to = this.aliases.get(o);
      if (to === undefined) fail(`${path}/@outerJoinAlias`, `alias "${o}" is not declared in from`);
      if (to === i) fail(`${path}/@outerJoinAlias`, 'a table cannot be outer-joined to itself');
      this.tables[i].outerJoinTo = to!;
    }
  }

  private alias(el: QmlElement, attr = 'alias'): number {
    const alias = requiredAttr(el, attr);
    const i = this.aliases.get(alias);
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
    return el.children.map((c) => {
      const expr = this.operand(c, 0);
      const heading = c.attrs.heading?.trim() || defaultHeading(c);
      const objectClass = expr.k === 'prop' && expr.prop === OBJECT_ITSELF ? this.tables[expr.table].cls.name : null;
      return { heading, expr, objectClass, path: c.path };
    });
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
        const prop = resolveProperty(this.tables[table].cls, path, typeFromHint(el.attrs.type));
        if (typeof prop === 'string') fail(el.path, prop);
        return { k: 'prop', table, prop: prop as Exclude<typeof prop, string>, path: el.path };
      }
      case 'object': {
        only(el, ['property']);
        const table = this.alias(el);
        const chain = propertyChain(el);
        const path = chain ?? el.attrs.propertyName?.trim() ?? '';
        const prop = resolveDerived(this.tables[table].cls, path);
        if (typeof prop === 'string') fail(el.path, prop);
        return { k: 'prop', table, prop: prop as Exclude<typeof prop, string>, path: el.path };
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
    const name = requiredAttr(el, 'name');
    const fn = findFunction(name);
    if (!fn) fail(el.path, `unknown function "${name}"`);
    const def = fn!;
    const n = el.children.length;
    if (n < def.minArgs || n > def.maxArgs) {
      const want = def.minArgs === def.maxArgs ? `${def.minArgs}` : `${def.minArgs} to ${def.maxArgs}`;
      fail(el.path, `${def.name} takes ${want} argument(s), found ${n}`);
    }
    const args = el.children.map((c) => this.operand(c, depth));
    for (const a of args) {
      if (def.aggregate && a.k === 'fn' && a.fn.aggregate) fail(a.path, 'aggregate functions cannot be nested');
    }
    return { k: 'fn', fn: def, args, type: functionType(def.name, args, el.path), path: el.path };
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
      return { k: type as 'and' | 'or', parts: el.children.map((c) => this.condition(c, inner)), path: el.path };
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
    return el.children.map((item) => {
      only(item, ['columnTarget']);
      const type = (item.attrs.type ?? 'asc').trim().toLowerCase() || 'asc';
      if (type !== 'asc' && type !== 'desc')
        fail(`${item.path}/@type`, `unknown type "${item.attrs.type}" (asc, desc)`);
      const target = one(item, 'columnTarget');
      only(target, []);
      const heading = requiredAttr(target, 'heading');
      const index = select.findIndex((s) => s.heading === heading);
      if (index < 0) fail(target.path, `no selected item has the heading "${heading}"`);
      return { item: index, desc: type === 'desc', path: item.path };
    });
  }

  private joins(el: QmlElement, kind: 'reference' | 'link'): JoinDecl[] {
    only(el, ['join']);
    return el.children.map((j): JoinDecl => {
      only(j, ['aliasTarget']);
      const name = requiredAttr(j, 'name');
      if (j.children.length !== 2)
        fail(j.path, `a join names exactly two aliasTarget elements, found ${j.children.length}`);
      const [a, b] = j.children.map((t) => this.alias(t));
      const [ca, cb] = [this.tables[a].cls, this.tables[b].cls];
      if (kind === 'reference') {
        const ref = findReference(ca, name);
        if (!ref) fail(`${j.path}/@name`, `unknown reference "${name}" of ${ca.name}`);
        if (ref!.target !== cb.kind) fail(j.path, `reference "${name}" of ${ca.name} cannot point to ${cb.name}`);
        return { k: 'reference', ref: ref!, from: a, to: b, path: j.path };
      }
      const link = findLink(name);
      if (!link) fail(`${j.path}/@name`, `unknown link class "${name}"`);
      if (link!.roleA !== ca.kind || link!.roleB !== cb.kind) {
        fail(j.path, `link ${name} cannot join ${ca.name} (role A) to ${cb.name} (role B)`);
      }
      return { k: 'link', link: link!, a, b, path: j.path };
    });
  }
}

function defaultHeading(el: QmlElement): string {
  if (el.name === 'function') return el.attrs.name?.trim() ?? 'function';
  return el.text || el.attrs.propertyName?.trim() || el.attrs.alias?.trim() || el.name;
}

/** `<property name="container"><property name="name"/></property>` → `container.name`. */
function propertyChain(el: QmlElement): string | null {
  const parts: string[] = [];
  for (let parent = el; parent.children.length > 0; parent = parent.children[0]) {
    if (parent.children.length > 1) fail(parent.children[1].path, 'a property chain has one property per level');
    only(parent, ['property']);
    parts.push(requiredAttr(parent.children[0], 'name'));
  }
  return parts.length ? parts.join('.') : null;
}

/** Result type of a function call, checking what can be checked before values are known. */
function functionType(name: string, args: Operand[], path: string): ValueType | null {
  const t = args.map(operandType);
  switch (name) {
    case 'UPPER':
    case 'LOWER':
    case 'CONCAT':
      return 'string';
    case 'SUBSTRING':
      for (const i of [1, 2]) {
        if (t[i] !== null && !isNumeric(t[i]!)) fail(args[i].path, `SUBSTRING needs a number here, not a ${t[i]}`);
      }
      return 'string';
    case 'LENGTH':
    case 'COUNT':
      return 'long';
    case 'SYSDATE':
      return 'timestamp';
    case 'ADD':
    case 'SUBTRACT': {
      if (t[1] === 'timestamp' && (name === 'SUBTRACT' || t[0] === 'timestamp')) {
        fail(path, `${name} takes a timestamp and a number of days, or two numbers`);
      }
      if (t[0] === 'timestamp' || t[1] === 'timestamp') return 'timestamp';
      for (let i = 0; i < 2; i++) {
        if (t[i] !== null && !isNumeric(t[i]!)) fail(args[i].path, `${name} needs a number here, not a ${t[i]}`);
      }
      return t[0] === 'long' && t[1] === 'long' ? 'long' : 'double';
    }
    case 'MIN':
    case 'MAX':
      if (t[0] === 'boolean') fail(args[0].path, `${name} needs a number, text or timestamp, not a boolean`);
      return t[0] ?? 'string';
    case 'SUM':
      if (t[0] !== null && !isNumeric(t[0])) fail(args[0].path, `SUM needs a number, not a ${t[0]}`);
      return t[0] === 'long' ? 'long' : 'double';
    case 'AVG':
      if (t[0] !== null && !isNumeric(t[0])) fail(args[0].path, `AVG needs a number, not a ${t[0]}`);
      return 'double';
    default:
      return null;
  }
}

function checkComparable(l: Operand, r: Operand, path: string): void {
  const a = operandType(l);
  const b = operandType(r);
  if (a === null || b === null || a === b) return;
  if (isNumeric(a) && isNumeric(b)) return;
  if ((a === 'oid' && b === 'string') || (a === 'string' && b === 'oid')) return;
  fail(path, `cannot compare a ${a} with a ${b}`);
}
