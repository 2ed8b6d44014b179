/**
 * The whitelisted functions and operators of the dialect. Anything else is rejected. What each
 * function accepts and returns: function-types.ts; its SQL: sql/sql-functions.ts; what the
 * reference says of it: function-notes.ts.
 */

export type FunctionName =
  // text
  | 'UPPER'
  | 'LOWER'
  | 'INITCAP'
  | 'CONCAT'
  | 'SUBSTRING'
  | 'LENGTH'
  | 'INSTR'
  | 'TRIM'
  | 'LTRIM'
  | 'RTRIM'
  | 'REPLACE'
  | 'TRANSLATE'
  | 'LPAD'
  | 'RPAD'
  // numbers
  | 'ADD'
  | 'SUBTRACT'
  | 'MULTIPLY'
  | 'DIVIDE'
  | 'MOD'
  | 'ABS'
  | 'SIGN'
  | 'ROUND'
  | 'TRUNC'
  | 'CEIL'
  | 'FLOOR'
  | 'POWER'
  | 'SQRT'
  // dates
  | 'SYSDATE'
  | 'ADD_MONTHS'
  | 'MONTHS_BETWEEN'
  | 'LAST_DAY'
  | 'NEXT_DAY'
  // conversion and null handling
  | 'TO_CHAR'
  | 'TO_DATE'
  | 'TO_NUMBER'
  | 'NVL'
  | 'NVL2'
  | 'COALESCE'
  | 'GREATEST'
  | 'LEAST'
  | 'DECODE'
  // aggregates
  | 'COUNT'
  | 'MIN'
  | 'MAX'
  | 'SUM'
  | 'AVG'
  | 'STDDEV'
  | 'VARIANCE';

export interface FunctionDef {
  name: FunctionName;
  minArgs: number;
  maxArgs: number;
  aggregate: boolean;
  /** Other names templates use for it: Windchill's `SQLFunction` spellings and Oracle's. */
  aliases: readonly string[];
}

const fn = (name: FunctionName, minArgs: number, maxArgs: number, aliases: string[] = []): FunctionDef => ({
  name,
  minArgs,
  maxArgs,
  aggregate: false,
  aliases,
});
const agg = (name: FunctionName, minArgs: number, aliases: string[] = []): FunctionDef => ({
  ...fn(name, minArgs, 1, aliases),
  aggregate: true,
});

/** Arguments of the functions that take a list (CONCAT, COALESCE, GREATEST, LEAST, DECODE). */
export const MAX_LIST_ARGS = 32;

const DEFS: FunctionDef[] = [
  fn('UPPER', 1, 1),
  fn('LOWER', 1, 1),
  fn('INITCAP', 1, 1),
  fn('CONCAT', 2, MAX_LIST_ARGS),
  fn('SUBSTRING', 2, 3, ['SUB_STRING', 'SUBSTR']),
  fn('LENGTH', 1, 1),
  fn('INSTR', 2, 2),
  fn('TRIM', 1, 1),
  fn('LTRIM', 1, 2),
  fn('RTRIM', 1, 2),
  fn('REPLACE', 2, 3),
  fn('TRANSLATE', 3, 3),
  fn('LPAD', 2, 3),
  fn('RPAD', 2, 3),
  fn('ADD', 2, 2),
  fn('SUBTRACT', 2, 2),
  fn('MULTIPLY', 2, 2),
  fn('DIVIDE', 2, 2),
  fn('MOD', 2, 2),
  fn('ABS', 1, 1),
  fn('SIGN', 1, 1),
  fn('ROUND', 1, 2),
  fn('TRUNC', 1, 2),
  fn('CEIL', 1, 1),
  fn('FLOOR', 1, 1),
  fn('POWER', 2, 2),
  fn('SQRT', 1, 1),
  fn('SYSDATE', 0, 0),
  fn('ADD_MONTHS', 2, 2),
  fn('MONTHS_BETWEEN', 2, 2),
  fn('LAST_DAY', 1, 1),
  fn('NEXT_DAY', 2, 2),
  fn('TO_CHAR', 1, 2),
  fn('TO_DATE', 1, 2),
  fn('TO_NUMBER', 1, 1),
  fn('NVL', 2, 2),
  fn('NVL2', 3, 3),
  fn('COALESCE', 2, MAX_LIST_ARGS),
  fn('GREATEST', 2, MAX_LIST_ARGS),
  fn('LEAST', 2, MAX_LIST_ARGS),
  fn('DECODE', 3, MAX_LIST_ARGS),
  agg('COUNT', 0),
  agg('MIN', 1, ['MINIMUM']),
  agg('MAX', 1, ['MAXIMUM']),
  agg('SUM', 1),
  agg('AVG', 1, ['AVERAGE']),
  agg('STDDEV', 1),
  agg('VARIANCE', 1),
];

const FUNCTIONS = new Map<string, FunctionDef>(DEFS.flatMap((f) => [f.name, ...f.aliases].map((n) => [n, f])));

/** Function names are matched case-insensitively, as the GUI writes them either way. */
export function findFunction(name: string): FunctionDef | undefined {
  return FUNCTIONS.get(name.trim().toUpperCase());
}

export type ComparisonOperator =
  'equal' | 'notEqual' | 'lessThan' | 'lessThanOrEqual' | 'greaterThan' | 'greaterThanOrEqual' | 'like' | 'notLike';

export const COMPARISON_OPERATORS: readonly ComparisonOperator[] = [
  'equal',
  'notEqual',
  'lessThan',
  'lessThanOrEqual',
  'greaterThan',
  'greaterThanOrEqual',
  'like',
  'notLike',
];

export function isComparisonOperator(type: string): type is ComparisonOperator {
  return (COMPARISON_OPERATORS as readonly string[]).includes(type);
}

/** Every function, in registry order: for the generated reference (docs/qml-reference.md). */
export function listFunctions(): readonly FunctionDef[] {
  return DEFS;
}
