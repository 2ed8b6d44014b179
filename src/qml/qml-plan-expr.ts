import type { Condition, Operand, QmlTemplate } from './qml-ast.js';
import { operandType } from './qml-ast.js';
import { QmlError, QmlLimitError } from './qml-error.js';
import type { ComparisonOperator } from './qml-functions.js';
import type { PropertyDef } from '../catalog/catalog-model.js';
import type { Aux, ColumnRef } from '../catalog/storage.js';
import type {
  CmpOp,
  ComputedTable,
  InternalFunction,
  PlannedTable,
  PlanRequest,
  SqlCond,
  SqlExpr,
} from './qml-plan-types.js';
import { isNumeric, type ValueType } from './qml-types.js';
import { likePattern } from '../common/wildcard.js';
import { convertValue, expandMacro, type MacroContext } from './qml-values.js';

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
  private readonly macro: MacroContext;
  /** The value of each parameter used, by name. */
  readonly used = new Map<string, string>();
  /** Values in the in-lists planned so far. */
  private listValues = 0;

  constructor(
    private readonly t: QmlTemplate,
    private readonly req: Pick<PlanRequest, 'values' | 'user' | 'now'>,
    private readonly tables: PlannedTable[],
    private readonly maxListValues: number,
  ) {
    this.macro = { userId: req.user.id, userName: req.user.name, now: req.now };
  }

  /** Marks the aux table a column is in as needed. */
  use(table: number, ref: ColumnRef): void {
    if (ref.aux !== 'self') this.tables[table].aux.add(ref.aux);
  }

  column(table: number, aux: Aux, column: string): SqlExpr {
    const tb = this.tables[table];
    if (aux !== 'self') tb.aux.add(aux);
    const suffix = aux === 'self' ? '' : tb.storage.aux[aux]!.suffix;
    return { k: 'col', alias: `${tb.alias}${suffix}`, column };
  }

  jsonExpr(table: number, at: ColumnRef, key: string, type: ValueType): SqlExpr {
    const col = this.column(table, at.aux, at.column) as Extract<SqlExpr, { k: 'col' }>;
    return { k: 'json', alias: col.alias, column: col.column, key, type };
  }

  computed(table: number, name: Extract<PropertyDef, { computed: unknown }>['computed']): SqlExpr {
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
  operand(o: Operand, expected: ValueType | null): Typed {
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
