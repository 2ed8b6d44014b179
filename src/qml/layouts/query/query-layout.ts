import type { OrderItem, QmlTemplate, SelectItem } from '../../validate/ast.js';
import { bool, fail, one, only, optional } from '../../parse/element-rules.js';
import type { ReportAttribute } from './query-layout-types.js';
import type { QmlLimits } from '../../qml-limits.js';
import type { QmlElement } from '../../parse/parse.js';
import type { Catalog } from '../../../catalog/catalog.js';
import { validateQml } from '../../validate/validate.js';

/**
 * The second front end: templates in the layout Query Builder writes since Windchill 10
 * (`qml/query` with `selectOrConstrain` and `reportAttribute`). The document is rewritten into
 * the element tree of the `qml/statement/query` layout, every element keeping its own path, so
 * the one validator resolves classes, properties, functions and joins for both layouts and its
 * errors name the elements of the document as written. What that layout cannot say (report
 * attributes that are not columns, inputs, criteria, outer joins named on joins and conditions,
 * sorting by attribute) is read here and added to the validated template.
 */
export function isQueryLayout(root: QmlElement): boolean {
  return root.children.some((c) => c.name === 'query');
}

export function compileQueryLayout(root: QmlElement, limits: Partial<QmlLimits>, catalog?: Catalog): QmlTemplate {
  rejectScripts(root);
  const front = new QueryLayout(root);
  const tree = front.statementTree();
  return front.finish(validateQml(tree, limits, catalog));
}

/** A value written in an attribute; blank is none. */
function value(el: QmlElement, attr: string): string | null {
  const v = el.attrs[attr];
  return v === undefined || v.trim() === '' ? null : v;
}

const element = (name: string, path: string, attrs: Record<string, string>, children: QmlElement[] = []) => ({
  name,
  attrs,
  children,
  text: '',
  path,
});

/** Scripts are Java callbacks of the exporting system: nothing of them can run here. */
function rejectScripts(el: QmlElement): void {
  if (el.name === 'script') {
    const cls = el.attrs.className?.trim();
    fail(
      el.path,
      `scripts (Java callbacks${cls ? ` such as ${cls}` : ''}) never run here: remove the script element, or select its arguments as columns`,
    );
  }
  el.children.forEach(rejectScripts);
}

interface Attr {
  info: ReportAttribute;
  /** The wrapped column, object, function or constant (value attributes). */
  item: QmlElement | null;
  /** The attribute's position among the value attributes (the select items of the tree). */
  index: number;
  /** The `type` of an input's parameterValue. */
  inputType: string;
}

class QueryLayout {
  private readonly attrs: Attr[] = [];
  private readonly byId = new Map<string, Attr>();
  /** Outer-joined table alias → the alias it is joined to, and where that was said. */
  private readonly outer = new Map<string, { partner: string; path: string }>();
  private readonly query: QmlElement;
  private readonly selectOrConstrain: QmlElement;

  constructor(private readonly root: QmlElement) {
    only(root, ['parameter', 'query']);
    this.query = one(root, 'query');
    only(this.query, [
      'selectOrConstrain',
      'from',
      'where',
      'orderBy',
      'linkJoin',
      'referenceJoin',
      'descriptionForExport',
    ]);
    const description = optional(this.query, 'descriptionForExport');
    if (description) only(description, []);
    this.selectOrConstrain = one(this.query, 'selectOrConstrain');
  }

  /** The document as the `qml/statement/query` layout. */
  statementTree(): QmlElement {
    const soc = this.selectOrConstrain;
    only(soc, ['reportAttribute', 'layoutSectionHeader']);
    for (const c of soc.children) {
      if (c.name === 'layoutSectionHeader') only(c, []);
      else this.attribute(c);
    }
    const values = this.attrs.filter((a) => a.item);
    // Items may refer to other attributes (a function of an input): resolved once all are known.
    for (const a of values) a.item = this.resolved(a);
    // Every value attribute is validated as a select item; those that are not result columns
    // leave the select list afterwards (finish), so the aggregate check waits until then.
    const select = element('select', soc.path, { distinct: soc.attrs.distinct ?? '', group: 'true' }, [
      ...values.map((a) => ({ ...a.item!, attrs: { ...a.item!.attrs, heading: a.info.heading } })),
    ]);
    const inputs = this.attrs.filter((a) => a.info.kind === 'input').map((a) => this.input(a));
    const q = this.query;
    const parts: QmlElement[] = [select];
    const whereEl = optional(q, 'where');
    const where = whereEl ? this.where(whereEl) : null;
    const joins: QmlElement[] = [];
    for (const kind of ['linkJoin', 'referenceJoin']) {
      const j = optional(q, kind);
      if (j) joins.push(this.joinGroup(j));
    }
    parts.push(this.from(one(q, 'from')));
    if (where) parts.push(where);
    parts.push(...joins);
    const rootAttrs: Record<string, string> = {};
    for (const a of ['bypassAccessControl', 'caseInsensitive']) {
      if (this.root.attrs[a] !== undefined) rootAttrs[a] = this.root.attrs[a];
    }
    const params = this.root.children.filter((c) => c.name === 'parameter');
    return element('qml', this.root.path, rootAttrs, [
      ...params,
      ...inputs,
      element('statement', q.path, {}, [element('query', q.path, {}, parts)]),
    ]);
  }

  /** The validated tree plus what only this layout says. */
  finish(base: QmlTemplate): QmlTemplate {
    const soc = this.selectOrConstrain;
    const select: SelectItem[] = [];
    for (const a of this.attrs) {
      if (!a.item) continue;
      const item = base.select[a.index];
      const aggregate = item.expr.k === 'fn' && item.expr.fn.aggregate;
      const constrainable = !aggregate && item.expr.k !== 'const';
      if (!constrainable && (a.info.defaultValue !== null || a.info.constantValue !== null)) {
        const what = aggregate ? 'an aggregate function' : 'a constant';
        const attr = a.info.constantValue !== null ? 'constantValue' : 'defaultValue';
        fail(`${a.info.path}/@${attr}`, `${what} cannot be constrained: remove the ${attr}`);
      }
      a.info.operand = constrainable ? item.expr : null;
      if (a.info.selected) select.push(item);
    }
    if (select.length === 0)
      fail(soc.path, 'no reportAttribute is a result column (userCanSelect="false" on all, or only parameterValue)');
    const group = bool(soc, 'group', false);
    const aggregates = select.filter((s) => s.expr.k === 'fn' && s.expr.fn.aggregate).length;
    if (aggregates > 0 && aggregates < select.length && !group)
      fail(soc.path, 'aggregate functions next to other result columns need selectOrConstrain group="true"');
    const orderByEl = optional(this.query, 'orderBy');
    return {
      ...base,
      group,
      select,
      orderBy: orderByEl ? this.orderBy(orderByEl, select) : [],
      reportAttributes: this.attrs.map((a) => a.info),
    };
  }

  private attribute(el: QmlElement): void {
    only(el, ['column', 'object', 'function', 'constant', 'parameterValue']);
    if (el.children.length !== 1) {
      fail(
        el.path,
        `a reportAttribute wraps exactly one column, object, function, constant or parameterValue, found ${el.children.length}`,
      );
    }
    const id = el.attrs.reportAttributeId?.trim() || el.attrs.heading?.trim() || '';
    if (!id) fail(el.path, 'a reportAttribute needs a reportAttributeId (or a heading)');
    if (this.byId.has(id)) fail(`${el.path}/@reportAttributeId`, `reportAttributeId "${id}" is declared twice`);
    const inner = el.children[0];
    const input = inner.name === 'parameterValue';
    if (input) only(inner, []);
    const userCanSelect = bool(el, 'userCanSelect', true);
    const alwaysSelect = bool(el, 'alwaysSelect', false);
    const attr: Attr = {
      info: {
        id,
        heading: el.attrs.heading?.trim() || id,
        kind: input ? 'input' : 'value',
        selected: !input && (alwaysSelect || userCanSelect),
        userCanConstrain: bool(el, 'userCanConstrain', false),
        defaultValue: value(el, 'defaultValue'),
        constantValue: value(el, 'constantValue'),
        isMacro: bool(el, 'isMacro', false),
        operand: null,
        path: el.path,
      },
      item: input ? null : inner,
      index: this.attrs.filter((a) => a.item).length,
      inputType: input ? (inner.attrs.type?.trim() ?? '') : '',
    };
    this.attrs.push(attr);
    this.byId.set(id, attr);
  }

  /** An input as a parameter named by its id; its constant or default value is the parameter's default. */
  private input(a: Attr): QmlElement {
    const fixed = a.info.constantValue ?? a.info.defaultValue;
    const d =
      fixed === null
        ? []
        : [{ ...element('parameterDefault', a.info.path, { isMacro: String(a.info.isMacro) }), text: fixed.trim() }];
    return element('parameter', a.info.path, { name: a.info.id, type: a.inputType }, d);
  }

  private readonly resolving = new Set<Attr>();
  private readonly done = new Set<Attr>();

  /** The item of a value attribute with the references in it resolved. */
  private resolved(a: Attr): QmlElement {
    if (this.done.has(a)) return a.item!;
    if (this.resolving.has(a)) fail(a.info.path, `reportAttribute "${a.info.id}" refers to itself`);
    this.resolving.add(a);
    a.item = this.item(a.item!);
    this.resolving.delete(a);
    this.done.add(a);
    return a.item;
  }

  /** A column, object, function, constant or parameterTarget, with references resolved. */
  private item(el: QmlElement): QmlElement {
    switch (el.name) {
      case 'reportAttributeReference': {
        only(el, []);
        const id = el.attrs.id?.trim();
        if (!id) return fail(el.path, 'attribute "id" is required');
        const a = this.byId.get(id);
        if (!a) return fail(`${el.path}/@id`, `no reportAttribute has the reportAttributeId "${id}"`);
        if (!a.item) return element('parameterTarget', el.path, { name: a.info.id });
        return this.resolved(a);
      }
      case 'parameterValue':
        // Outside a reportAttribute: a literal of the given type.
        only(el, []);
        return { ...element('constant', el.path, { type: el.attrs.type ?? '' }), text: el.text };
      case 'function':
        return { ...el, children: el.children.map((c) => this.item(c)) };
      default:
        return el;
    }
  }

  private where(el: QmlElement): QmlElement {
    only(el, ['compositeCondition', 'condition']);
    return { ...el, children: el.children.map((c) => this.condition(c)) };
  }

  private condition(el: QmlElement): QmlElement {
    if (el.name === 'compositeCondition') {
      only(el, ['compositeCondition', 'condition']);
      return { ...el, children: el.children.map((c) => this.condition(c)) };
    }
    const forms: Record<string, string[]> = {
      standardCondition: ['operand', 'operator'],
      nullCondition: ['operand', 'nullOperator'],
      inCondition: ['operand', 'inOperator', 'inOperand'],
    };
    only(el, Object.keys(forms));
    if (el.children.length !== 1) {
      fail(
        el.path,
        `a condition holds exactly one standardCondition, nullCondition or inCondition, found ${el.children.length}`,
      );
    }
    const inner = el.children[0];
    only(inner, forms[inner.name]);
    const parts = inner.children.map((c) => {
      if (c.name === 'operand') return { ...c, children: c.children.map((i) => this.item(i)) };
      if (c.name !== 'inOperand') return c;
      return {
        ...c,
        children: c.children.map((list) =>
          list.name === 'delimitedList' ? { ...list, children: list.children.map((i) => this.item(i)) } : list,
        ),
      };
    });
    const out = element('condition', inner.path, {}, parts);
    const o = el.attrs.outerJoinAlias?.trim();
    if (o) {
      const aliases = new Set<string>();
      collectAliases(out, aliases);
      const others = [...aliases].filter((a) => a !== o);
      if (!aliases.has(o) || others.length !== 1) {
        fail(
          `${el.path}/@outerJoinAlias`,
          `a condition with outerJoinAlias "${o}" relates that alias to exactly one other table, found ${[...aliases].map((a) => `"${a}"`).join(', ') || 'none'}`,
        );
      }
      this.markOuter(o, others[0], `${el.path}/@outerJoinAlias`);
    }
    return out;
  }

  private joinGroup(el: QmlElement): QmlElement {
    only(el, ['join']);
    return {
      ...el,
      children: el.children.map((j) => {
        only(j, ['fromAliasTarget', 'toAliasTarget']);
        const from = one(j, 'fromAliasTarget');
        const to = one(j, 'toAliasTarget');
        only(from, []);
        only(to, []);
        const o = j.attrs.outerJoinAlias?.trim();
        if (o) {
          const a = from.attrs.alias?.trim();
          const b = to.attrs.alias?.trim();
          if (o !== a && o !== b) fail(`${j.path}/@outerJoinAlias`, `"${o}" is not one of the two aliases of the join`);
          this.markOuter(o, (o === a ? b : a) ?? '', `${j.path}/@outerJoinAlias`);
        }
        const target = (t: QmlElement) => ({ ...t, name: 'aliasTarget' });
        return { ...j, attrs: { name: j.attrs.name ?? '' }, children: [target(from), target(to)] };
      }),
    };
  }

  private markOuter(alias: string, partner: string, path: string): void {
    const seen = this.outer.get(alias);
    if (seen && seen.partner !== partner) {
      fail(path, `table "${alias}" is outer-joined to "${seen.partner}" already, not also to "${partner}"`);
    }
    this.outer.set(alias, { partner, path });
  }

  /** The tables, outer joins named on joins and conditions moved onto the outer table. */
  private from(el: QmlElement): QmlElement {
    const aliases = new Set(el.children.map((t) => t.attrs.alias?.trim()));
    for (const [alias, { path }] of this.outer) {
      if (!aliases.has(alias)) fail(path, `alias "${alias}" is not declared in from`);
    }
    return {
      ...el,
      children: el.children.map((t) => {
        const o = this.outer.get(t.attrs.alias?.trim() ?? '');
        if (!o) return t;
        const own = t.attrs.outerJoinAlias?.trim();
        if (own && own !== o.partner)
          fail(o.path, `table "${t.attrs.alias}" is outer-joined to "${own}" already, not also to "${o.partner}"`);
        return { ...t, attrs: { ...t.attrs, outerJoinAlias: o.partner } };
      }),
    };
  }

  private orderBy(el: QmlElement, select: SelectItem[]): OrderItem[] {
    only(el, ['orderByItem']);
    return el.children.map((item) => {
      only(item, ['reportAttributeReference']);
      const type = (item.attrs.type ?? 'asc').trim().toLowerCase() || 'asc';
      if (type !== 'asc' && type !== 'desc')
        fail(`${item.path}/@type`, `unknown type "${item.attrs.type}" (asc, desc)`);
      const ref = one(item, 'reportAttributeReference');
      only(ref, []);
      const id = ref.attrs.id?.trim() ?? '';
      const a = this.byId.get(id);
      if (!a) return fail(`${ref.path}/@id`, `no reportAttribute has the reportAttributeId "${id}"`);
      const index = a.info.selected ? select.findIndex((s) => s.path === a.item!.path) : -1;
      if (index < 0) fail(ref.path, `reportAttribute "${id}" is not a result column: only result columns sort`);
      return { item: index, desc: type === 'desc', path: item.path };
    });
  }
}

function collectAliases(el: QmlElement, out: Set<string>): void {
  if ((el.name === 'column' || el.name === 'object') && el.attrs.alias?.trim()) out.add(el.attrs.alias.trim());
  el.children.forEach((c) => collectAliases(c, out));
}
