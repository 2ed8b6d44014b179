import type { Aux, SourceKind } from './qml-registry.js';
import type { ValueType } from './qml-types.js';
import type { BoundValue } from './qml-values.js';

/**
 * The planned query: generated aliases, typed expressions and bound values, no user text.
 * qml-sql.ts renders it; every name in it comes from the registry or is generated.
 */
export interface Plan {
  distinct: boolean;
  select: PlannedItem[];
  /** 1-based positions of the GROUP BY keys in the select list. */
  groupBy: number[];
  from: PlannedTable[];
  where: SqlCond[];
  orderBy: { by: { ordinal: number } | { expr: SqlExpr }; desc: boolean }[];
  limit: number;
}

export interface PlannedItem {
  heading: string;
  type: ValueType;
  /** Class of a selected object (its OID), for the heading type. */
  objectClass: string | null;
  expr: SqlExpr;
}

export interface PlannedTable {
  /** Generated alias: t1, t2 … (helper joins: t1m master, t1c container, t1u creator, t1v modifier). */
  alias: string;
  kind: SourceKind;
  aux: Set<Aux>;
  /** Discriminator and access filters: in WHERE for inner tables, in ON for outer ones. */
  filters: SqlCond[];
  /** Set when LEFT-joined: the conditions relating it to its partner. */
  outer: { on: SqlCond[] } | null;
}

export type InternalFunction =
  | 'UPPER'
  | 'LOWER'
  | 'CONCAT'
  | 'SUBSTRING'
  | 'LENGTH'
  | 'ADD'
  | 'SUBTRACT'
  | 'ADD_DAYS'
  | 'SUBTRACT_DAYS'
  | 'SYSDATE'
  | 'COUNT'
  | 'COUNT_ALL'
  | 'MIN'
  | 'MAX'
  | 'SUM'
  | 'SUM_LONG'
  | 'AVG'
  | 'TEXT';

export type SqlExpr =
  | { k: 'col'; alias: string; column: string }
  | { k: 'attr'; alias: string; key: string; type: ValueType }
  | { k: 'val'; value: BoundValue; type: ValueType }
  | { k: 'call'; fn: InternalFunction; args: SqlExpr[] }
  | { k: 'computed'; name: 'iterationDisplay' | 'displayType' | 'folderPath'; alias: string }
  | { k: 'oid'; alias: string; kind: SourceKind };

export type CmpOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type SqlCond =
  | { k: 'and' | 'or'; parts: SqlCond[] }
  | { k: 'cmp'; op: CmpOp; left: SqlExpr; right: SqlExpr }
  | { k: 'like'; not: boolean; left: SqlExpr; right: SqlExpr }
  | { k: 'null'; not: boolean; e: SqlExpr }
  | { k: 'in'; not: boolean; e: SqlExpr; values: SqlExpr[] }
  | { k: 'const'; value: boolean }
  | { k: 'access'; alias: string; kind: SourceKind; scope: readonly number[] | { memberOf: number } }
  | { k: 'class'; alias: string; kind: SourceKind; classes: readonly string[] }
  | { k: 'usage'; cls: string; a: string; b: string };
