import type { Condition, Operand, QmlTemplate } from '../validate/ast.js';
import { operandType } from '../validate/ast.js';
import { QmlError, QmlLimitError } from '../qml-error.js';
import type { ComparisonOperator } from '../functions/functions.js';
import type { PropertyDef, TypeInfoDef } from '../../catalog/catalog-model.js';
import type { Aux, ColumnRef } from '../../catalog/storage.js';
import type { CmpOp, ComputedTable, PlannedTable, PlanRequest, SqlCond, SqlExpr } from './plan-types.js';
import type { ValueType } from '../qml-types.js';
import { likePattern } from '../../common/wildcard.js';
import { convertValue, expandMacro } from '../parse/values.js';
import { fixed, once, type Derived, type ParamSource, type RequestReader } from './request.js';
import { likeShape } from '../sql/sql-like.js';
import { unionColumn } from './plan-tables.js';

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;

/** The type a value takes in a place of type `type`: a decimal met by an integer is a double. */
function valueType(text: string, type: ValueType): ValueType {
  return type === 'long' && !INTEGER_TEXT.test(text) && !text.trim().startsWith('OR:') ? 'double' : type;
}

function converts(text: string, type: ValueType): boolean {
  try {
    convertValue(text, type, '', '');
    return true;
  } catch (e) {
    if (e instanceof QmlError) return false;
    throw e;
  }
}

const listParts = (text: string, delimiter: string): string[] =>
  text
    .split(delimiter)
    .map((s) => s.trim())
    .filter((s) => s !== '');

const CMP: Record<Exclude<ComparisonOperator, 'like' | 'notLike'>, CmpOp> = {
  equal: '=',
  notEqual: '<>',
  lessThan: '<',
  lessThanOrEqual: '<=',
  greaterThan: '>',
  greaterThanOrEqual: '>=',
};

export interface Typed {
  e: SqlExpr;
  type: ValueType;
}

/**
 * The expressions and conditions of one execution over the planned tables: properties become
 * columns (of the table or the aux tables it then needs), computed values and JSON fields;
 * constants, macros and parameters become bound values of the type their place expects.
 */
export class ExpressionPlanner {
  /** The value of each parameter used, by name. */
  readonly used = new Map<string, Derived<string>>();
  /** Values in the in-lists planned so far. */
  private listValues = 0;

  constructor(
    private readonly t: QmlTemplate,
    private readonly reader: RequestReader,
    private readonly params: ParamSource,
    private readonly tables: PlannedTable[],
    private readonly maxListValues: number,
  ) {}

  /** The text a macro stands for, for this request. */
  private macro(name: string, path: string): Derived<string> {
    return this.reader.read((r: PlanRequest) =>
      expandMacro(name, { userId: r.user.id, userName: r.user.name, now: r.now }, path),
    );
  }

  /** The text of a constant: as written, a macro's, or a report attribute's value. */
  private constText(o: Extract<Operand, { k: 'const' }>): Derived<string> {
    if (o.isMacro) return this.macro(o.text, o.path);
    return o.of && this.reader.recording ? { now: o.text, of: o.of } : fixed(o.text);
  }

  /** Marks the aux table a column is in as needed. */
  use(tb: PlannedTable, ref: ColumnRef): void {
    if (ref.aux !== 'self') tb.aux.add(ref.aux);
  }

  column(tb: PlannedTable, aux: Aux, column: string): SqlExpr {
    if (aux !== 'self') tb.aux.add(aux);
    const suffix = aux === 'self' ? '' : tb.storage.aux[aux]!.suffix;
    return { k: 'col', alias: `${tb.alias}${suffix}`, column };
  }

  jsonExpr(tb: PlannedTable, at: ColumnRef, key: string, type: ValueType): SqlExpr {
    const col = this.column(tb, at.aux, at.column) as Extract<SqlExpr, { k: 'col' }>;
    return { k: 'json', alias: col.alias, column: col.column, key, type };
  }

  computed(tb: PlannedTable, name: Extract<PropertyDef, { computed: unknown }>['computed']): SqlExpr {
    if (tb.union) return unionColumn(tb, `computed ${name}`, (arm) => this.computed(arm, name));
    const storage = tb.storage;
    for (const ref of [
      storage.classColumn,
      storage.softTypeColumn,
      storage.oid === 'catalogClass' ? null : storage.oid.classAt,
    ])
      if (ref) this.use(tb, ref);
    if (name === 'folderPath' || name === 'containerName') tb.aux.add('container');
    const t: ComputedTable = { alias: tb.alias, storage, cls: tb.cls, labels: this.labels(tb) };
    return { k: 'computed', name, table: t };
  }

  private labels(tb: PlannedTable): ComputedTable['labels'] {
    const cat = this.t.catalog;
    const classes = tb.classValues.map((c): [string, string] => [c, cat.findClass(c)?.displayName ?? c]);
    if (classes.length === 0) classes.push([tb.cls, cat.findClass(tb.cls)?.displayName ?? tb.cls]);
    const softTypes = cat
      .listSoftTypes()
      .filter((st) => tb.labelClasses.some((c) => cat.isA(st.cls, c) || cat.isA(c, st.cls)))
      .map((st): [string, string] => [st.name, st.displayName]);
    return { classes, softTypes };
  }

  /** A property of a table; of a union: the column its arms give it (`arms`: the property in each). */
  property(tb: PlannedTable, p: PropertyDef, arms?: readonly PropertyDef[]): SqlExpr {
    if (tb.union) {
      const defs = arms ?? tb.union.arms.map(() => p);
      return unionColumn(tb, `property ${JSON.stringify(defs)}`, (arm, k) => this.property(arm, defs[k]));
    }
    if ('at' in p) return this.column(tb, p.at.aux, p.at.column);
    if ('json' in p) {
      const e = this.jsonExpr(tb, p.json.at, p.json.key, p.type) as Extract<SqlExpr, { k: 'json' }>;
      if (!p.json.fallback) return e;
      const f = this.column(tb, p.json.fallback.aux, p.json.fallback.column) as Extract<SqlExpr, { k: 'col' }>;
      return { ...e, fallback: { alias: f.alias, column: f.column } };
    }
    if ('typeInfo' in p) return this.typeInfo(tb, p.typeInfo, p.type);
    return this.computed(tb, p.computed);
  }

  /**
   * A typeInfo column: the attribute the row's soft type keeps in it (src/catalog/type-info.ts),
   * or for `….key.classname` the class it names where the reference is set.
   */
  typeInfo(tb: PlannedTable, d: TypeInfoDef, type: ValueType): SqlExpr {
    const whens = d.cases.map((c) => {
      const value = this.jsonExpr(tb, d.at, c.key, c.className ? 'long' : type);
      const conds: SqlCond[] = [];
      if (!d.whole) {
        this.use(tb, tb.storage.softTypeColumn!);
        conds.push({ k: 'softType', alias: tb.alias, storage: tb.storage, types: c.types });
      }
      if (c.className) conds.push({ k: 'null', not: true, e: value });
      const then: SqlExpr = c.className ? { k: 'val', value: c.className, type: 'string' } : value;
      return { conds, then };
    });
    if (whens.length === 1 && whens[0].conds.length === 0) return whens[0].then;
    return {
      k: 'case',
      type,
      whens: whens.map((w) => ({
        when: w.conds.length === 1 ? w.conds[0] : { k: 'and', parts: w.conds },
        then: w.then,
      })),
    };
  }

  /** An operand as a typed expression; constants and parameters take the `expected` type. */
  operand(o: Operand, expected: ValueType | null): Typed {
    switch (o.k) {
      case 'prop':
        return { e: this.property(this.tables[o.table], o.prop, o.arms), type: o.prop.type };
      case 'const':
        return this.value(this.constText(o), expected ?? o.hint ?? 'string', `value`, o.path);
      case 'param': {
        const text = this.paramText(o.name, o.path);
        const decl = this.t.parameters.find((p) => p.name === o.name)!;
        return this.value(text, expected ?? decl.hint ?? 'string', `parameter "${o.name}" value`, o.path);
      }
      case 'fn':
        return this.call(o);
    }
  }

  private paramText(name: string, path: string): Derived<string> {
    const decl = this.t.parameters.find((p) => p.name === name)!;
    let text = this.params.text(name);
    if (!text && decl.default)
      text = decl.default.isMacro ? this.macro(decl.default.text, decl.path) : fixed(decl.default.text);
    if (!text) throw new QmlError(path, `parameter "${name}" has no value`);
    this.used.set(name, text);
    return text;
  }

  private value(text: Derived<string>, expected: ValueType, what: string, path: string): Typed {
    // A decimal compared with an integer property is compared as a number, not rejected.
    const type = expected === 'long' ? this.reader.shape(text, (s) => valueType(s, expected)) : expected;
    const value = convertValue(text.now, type, what, path);
    const of = text.of;
    if (!of) return { e: { k: 'val', value, type }, type };
    // Whether another request's text converts is part of the shape: it decides the error.
    if (type !== 'string' && type !== 'oid') this.reader.shape(text, (s) => converts(s, type));
    return { e: { k: 'val', value, type, of: (r) => convertValue(of(r), type, what, path) }, type };
  }

  private text(x: Typed): SqlExpr {
    return x.type === 'string' || x.type === 'oid' ? x.e : { k: 'call', fn: 'TEXT', args: [x.e] };
  }

  /**
   * A function call as the validator typed it: each argument planned for the type its place
   * takes (as text where the function reads text), format settings bound as values. A numeric
   * result is a double where an argument that decides it turned out one (a decimal parameter).
   */
  private call(o: Extract<Operand, { k: 'fn' }>): Typed {
    const c = o.call;
    const args = o.args.map((a, i): Typed => {
      const p = c.args[i];
      if ('setting' in p) {
        const type = typeof p.setting === 'number' ? 'long' : 'string';
        return { e: { k: 'val', value: p.setting, type }, type };
      }
      const x = this.operand(a, p.type);
      return p.type === 'string' ? { e: this.text(x), type: 'string' } : x;
    });
    const double = c.widen?.some((i) => args[i].type === 'double');
    const type = c.result === 'long' && double ? 'double' : c.result;
    const order = c.order ?? args.map((_, i) => i);
    return { e: { k: 'call', fn: c.fn, args: order.map((i) => args[i].e), type }, type };
  }

  condition(c: Condition): SqlCond {
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
          const text = src.k === 'param' ? this.paramText(src.name, src.path) : this.constText(src);
          const what = src.k === 'param' ? `parameter "${src.name}" value` : 'value';
          const parts = once(this.reader.map(text, (s) => listParts(s, item.delimiter)));
          const count = this.reader.shape(parts, (p) => p.length);
          this.listValues += count;
          if (this.listValues > this.maxListValues) {
            throw new QmlLimitError(
              c.path,
              `the in-lists hold more than ${this.maxListValues} values in all (the limit)`,
              'maxListValues',
            );
          }
          for (let i = 0; i < count; i++) {
            const part = this.reader.map(parts, (p) => p[i]);
            values.push(this.fold(this.value(part, expected, what, src.path)));
          }
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
    const e = this.operand(o, 'string').e as Extract<SqlExpr, { k: 'val' }>;
    const text: Derived<string> = {
      now: e.value as string,
      of: (e.of as ((r: PlanRequest) => string) | undefined) ?? null,
    };
    const pattern = once(this.reader.map(text, (v) => likePattern(v, 'qml')));
    // Whether the pattern has a literal prefix, and a range, decides the SQL (sql/sql-like.ts).
    this.reader.shape(pattern, likeShape);
    return { k: 'val', value: pattern.now, type: 'string', ...(pattern.of ? { of: pattern.of } : {}) };
  }
}
