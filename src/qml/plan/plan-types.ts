import type { ComputedKind } from '../../catalog/catalog-model.js';
import type { Aux, Storage } from '../../catalog/storage.js';
import type { InternalFunction } from '../sql/sql-functions.js';
import type { ValueType } from '../qml-types.js';
import type { BoundValue } from '../parse/values.js';
import type { Derived } from './request.js';

/**
 * The planned query: generated aliases, typed expressions and bound values, no user text.
 * sql/sql.ts renders it; every name in it comes from the storage whitelist or is generated.
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
  /** Set while recording (request.ts): how to read the limit from another request. */
  limitOf?: (r: PlanRequest) => number;
}

export interface PlannedItem {
  heading: string;
  type: ValueType;
  /** Class of a selected object (its OID), for the heading type. */
  objectClass: string | null;
  expr: SqlExpr;
}

export interface PlannedTable {
  /**
   * Generated alias: t1, t2 … (helper joins: t1m master, t1c container, t1u creator, t1v
   * modifier; tables of property paths: t1p1 …; arms of a union: t1a1 …).
   */
  alias: string;
  storage: Storage;
  /** The catalog class: its name is the class of an OID where the storage keeps no class column. */
  cls: string;
  /** The values of the class column its rows have. */
  classValues: readonly string[];
  /** Classes whose soft types' display names displayType may show. */
  labelClasses: readonly string[];
  aux: Set<Aux>;
  /** Discriminator and access filters: in WHERE for inner tables, in ON for outer ones. */
  filters: SqlCond[];
  /** Set when LEFT-joined: the conditions relating it to its partner. */
  outer: { on: SqlCond[] } | null;
  /**
   * Tables property paths reach through references of this one: each LEFT-joined right after
   * it (and its helper joins) on the reference and the target's filters.
   */
  paths: { table: PlannedTable; on: SqlCond[] }[];
  /** Set for a union of several arms: a subquery of their rows (plan-tables.ts). */
  union: PlannedUnion | null;
}

/**
 * The arms of a union, each a table with its helper joins and filters, and the columns the
 * subquery gives (`id`, `u` the arm's number, then the values the template reads: `v1` …),
 * each an expression per arm. A union a path reaches (`joined`) is no subquery: each arm is
 * LEFT-joined on its own (its filters, the reference's condition first, are its ON), at most
 * one of them matches, and a value is that arm's.
 */
export interface PlannedUnion {
  arms: PlannedTable[];
  joined: boolean;
  columns: { name: string; exprs: SqlExpr[] }[];
  /** Column names by what they compute (the same value read twice is one column). */
  byKey: Map<string, string>;
}

export type { InternalFunction } from '../sql/sql-functions.js';

export type SqlExpr =
  | { k: 'col'; alias: string; column: string }
  /** A key of a JSON column, cast to its type when the value has that type (else NULL). */
  | {
      k: 'json';
      alias: string;
      column: string;
      key: string;
      type: ValueType;
      fallback?: { alias: string; column: string };
    }
  /** `of`: set while recording for a value of the request (request.ts): how to compute it again. */
  | { k: 'val'; value: BoundValue; type: ValueType; of?: (r: PlanRequest) => BoundValue }
  /** `type`: the result type of a QML function (some render by it: SUM, MOD, ROUND …). */
  | { k: 'call'; fn: InternalFunction; args: SqlExpr[]; type?: ValueType }
  | { k: 'computed'; name: ComputedKind; table: ComputedTable }
  /** The first `then` whose condition holds, else NULL (a soft type's attribute by the row's type). */
  | { k: 'case'; whens: { when: SqlCond; then: SqlExpr }[]; type?: ValueType };

/** What a computed value needs of its table. */
export interface ComputedTable {
  alias: string;
  storage: Storage;
  /** The catalog class of the table: its name where the table keeps no class column. */
  cls: string;
  /** Display names of the classes and soft types its rows may have (displayType). */
  labels: { classes: [string, string][]; softTypes: [string, string][] };
}

export type CmpOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type SqlCond =
  | { k: 'and' | 'or'; parts: SqlCond[] }
  | { k: 'cmp'; op: CmpOp; left: SqlExpr; right: SqlExpr }
  | { k: 'like'; not: boolean; left: SqlExpr; right: SqlExpr }
  | { k: 'null'; not: boolean; e: SqlExpr }
  | { k: 'in'; not: boolean; e: SqlExpr; values: SqlExpr[] }
  | { k: 'const'; value: boolean }
  | { k: 'access'; alias: string; storage: Storage; scope: AccessScope }
  /**
   * Working copies of check-outs kept out (plan-working.ts): of an iteration table, rows that are
   * none, or (`holder`: the caller's user id) one the caller holds; of a table kept on an
   * iteration (files, usage links), rows whose holder iteration is none.
   */
  | { k: 'working'; alias: string; storage: Storage; holder: SqlExpr | null }
  | { k: 'class'; alias: string; storage: Storage; classes: readonly string[] }
  | { k: 'softType'; alias: string; storage: Storage; types: readonly string[] }
  /** A link row of these classes between two aliases, in a link table (not in FROM). */
  | { k: 'link'; storage: Storage; classes: readonly string[]; a: string; b: string; scope: AccessScope | null };

/**
 * The containers a caller may read, as the plan uses them: the user whose access roles (own
 * and groups') count, or the container ids. `of` (set while recording, request.ts): how to read them from another
 * request, whose readable scope has the same kind.
 */
export type AccessScope =
  | { memberOf: number; of?: (r: PlanRequest) => number }
  | { ids: readonly number[]; of?: (r: PlanRequest) => readonly number[] };

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
  /** The same values as read from the request (request.ts). */
  used: (Derived<string> | null)[];
}
