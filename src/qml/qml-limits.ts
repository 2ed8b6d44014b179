/**
 * Size limits of one template and one execution. Each keeps a report within what PostgreSQL
 * plans quickly and accepts at all: past them a document is refused (QmlLimitError) before any
 * SQL is sent.
 */
export interface QmlLimits {
  /** Tables (aliases) in from: planning time grows fast with them, and past ~5000 so does its stack. */
  maxTables: number;
  /** Select items: PostgreSQL's result rows have at most 1664 columns. */
  maxSelectItems: number;
  /** Values in all the in-lists of one execution together, after parameters are split. */
  maxListValues: number;
  /** Deepest nesting of compositeCondition and function elements (each level counts one). */
  maxNesting: number;
}

export const DEFAULT_LIMITS: Readonly<QmlLimits> = {
  maxTables: 100,
  maxSelectItems: 1000,
  maxListValues: 10_000,
  maxNesting: 32,
};

/**
 * References one property path may go through (`source.parentProcessRef.creator.name`: three).
 * Each is a join: past this a path is refused (400) rather than compiled into a long chain.
 */
export const MAX_PATH_HOPS = 4;

/**
 * Element levels allowed on top of maxNesting: qml, statement, query, where, condition,
 * operand, a value, object property chains.
 */
export const ELEMENT_DEPTH_MARGIN = 16;

/** Target list entries of one query (MaxTupleAttributeNumber), ORDER BY keys not selected included. */
export const PG_MAX_RESULT_COLUMNS = 1664;

/** Bound parameters of one statement: the protocol counts them in 16 bits. */
export const PG_MAX_BOUND_VALUES = 65_535;
