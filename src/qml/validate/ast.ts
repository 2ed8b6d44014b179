import type { CatalogClass, PropertyDef, ReferenceDef } from '../../catalog/catalog-model.js';
import type { Catalog, TableType } from '../../catalog/catalog.js';
import type { Storage } from '../../catalog/storage.js';
import type { ComparisonOperator, FunctionDef } from '../functions/functions.js';
import type { CallTyping } from '../functions/function-types.js';
import type { ReportAttribute } from '../layouts/query/query-layout-types.js';
import type { PlanRequest } from '../plan/plan-types.js';
import type { ValueType } from '../qml-types.js';

/**
 * A validated QML template: every name resolved against the catalog, every alias and
 * parameter reference checked. It holds no request values yet, so it can be cached and
 * planned again for each execution. `path` fields locate errors found later (conversions).
 */
export interface QmlTemplate {
  /** The catalog the names were resolved in. */
  catalog: Catalog;
  bypassAccessControl: boolean;
  parameters: ParameterDecl[];
  distinct: boolean;
  group: boolean;
  select: SelectItem[];
  tables: TableDecl[];
  where: Condition | null;
  orderBy: OrderItem[];
  joins: JoinDecl[];
  /** String comparisons, `like` and in-lists ignore case (`qml caseInsensitive="true"`). */
  caseInsensitive?: boolean;
  /**
   * Set for the `qml/query` layout (Windchill 10 and later): its report attributes, which
   * constrain each execution (layouts/query/query-layout-bind.ts) beyond `where`.
   */
  reportAttributes?: ReportAttribute[];
  /** What was accepted but may not mean what the author thinks (an undeclared soft type …). */
  warnings: { path: string; message: string }[];
}

export interface ParameterDecl {
  name: string;
  /** The declared type attribute, as written. */
  declaredType: string;
  hint: ValueType | null;
  default: { text: string; isMacro: boolean } | null;
  path: string;
}

export interface TableDecl {
  /** As written; a table a property path reaches: `<alias>.<reference>`. */
  alias: string;
  cls: CatalogClass;
  /**
   * The class, its storage and the soft types the table is narrowed to. For a union (`union`):
   * its first arm's class and storage, the rows coming from each arm.
   */
  type: TableType;
  /** Index of the table this one is LEFT-joined to. */
  outerJoinTo: number | null;
  path: string;
  /**
   * Set for a table no `from` names: the target of a reference a property path goes through
   * (`iterationInfo.creator.name`), LEFT-joined to table `from` (one row at most, null where the
   * reference is null or names a row the caller may not read). `arms`: the reference of each arm
   * when `from` is a union.
   */
  via: { from: number; ref: ReferenceDef; arms?: ReferenceDef[] } | null;
  /**
   * Set for a table of an interface or of an abstract class above several storages: its classes
   * grouped into arms, each of one storage and keeping the paths the template reads alike. One
   * arm reads as a table of that storage; several, as the UNION ALL of their rows.
   */
  union: { arms: UnionArm[] } | null;
}

/** Classes of one storage in a union, and the values of its class column they have. */
export interface UnionArm {
  storage: Storage;
  /** The first of its classes (display names, the class of an OID where the storage keeps none). */
  cls: CatalogClass;
  classValues: readonly string[];
}

export interface SelectItem {
  heading: string;
  expr: Operand;
  /** The class of a selected object, reported as the heading type. */
  objectClass: string | null;
  path: string;
}

export type Operand =
  /** `arms`: on a union, the property of each arm (`prop` is the first's: its type is theirs). */
  | { k: 'prop'; table: number; prop: PropertyDef; path: string; arms?: PropertyDef[] }
  /** `of`: a text of the request (a report attribute's value): how to read it from another request. */
  | {
      k: 'const';
      text: string;
      isMacro: boolean;
      hint: ValueType | null;
      path: string;
      of?: (r: PlanRequest) => string;
    }
  | { k: 'param'; name: string; path: string }
  /** `call`: how the validator resolved the call (variant, argument types, formats), for every plan. */
  | { k: 'fn'; fn: FunctionDef; args: Operand[]; type: ValueType; call: CallTyping; path: string };

export type Condition =
  | { k: 'and' | 'or'; parts: Condition[]; path: string }
  | { k: 'cmp'; op: ComparisonOperator; left: Operand; right: Operand; path: string }
  | { k: 'null'; not: boolean; operand: Operand; path: string }
  | { k: 'in'; not: boolean; operand: Operand; items: InItem[]; path: string };

export interface InItem {
  source: Extract<Operand, { k: 'const' } | { k: 'param' }>;
  delimiter: string;
}

export interface OrderItem {
  item: number;
  desc: boolean;
  path: string;
}

export type JoinDecl =
  /** `arms`: the reference of each arm when `from` is a union (`ref` is the first's). */
  | { k: 'reference'; ref: ReferenceDef; from: number; to: number; path: string; arms?: ReferenceDef[] }
  /** `none`: why the link can join no rows of these tables (files of a holder kept elsewhere). */
  | { k: 'link'; link: CatalogClass; a: number; b: number; path: string; none?: string };

/** The static type of an operand; null for constants and parameters, typed by their context. */
export function operandType(o: Operand): ValueType | null {
  switch (o.k) {
    case 'prop':
      return o.prop.type;
    case 'fn':
      return o.type;
    default:
      return null;
  }
}
