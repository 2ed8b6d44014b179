/** The whitelisted functions and operators of the dialect. Anything else is rejected. */

export type FunctionName =
  | 'UPPER'
  | 'LOWER'
  | 'CONCAT'
  | 'SUBSTRING'
  | 'LENGTH'
  | 'ADD'
  | 'SUBTRACT'
  | 'SYSDATE'
  | 'COUNT'
  | 'MIN'
  | 'MAX'
  | 'SUM'
  | 'AVG';

export interface FunctionDef {
  name: FunctionName;
  minArgs: number;
  maxArgs: number;
  aggregate: boolean;
}

const fn = (name: FunctionName, minArgs: number, maxArgs: number, aggregate = false): FunctionDef => ({
  name,
  minArgs,
  maxArgs,
  aggregate,
});

const FUNCTIONS = new Map<string, FunctionDef>(
  [
    fn('UPPER', 1, 1),
    fn('LOWER', 1, 1),
    fn('CONCAT', 2, 32),
    fn('SUBSTRING', 3, 3),
    fn('LENGTH', 1, 1),
    fn('ADD', 2, 2),
    fn('SUBTRACT', 2, 2),
    fn('SYSDATE', 0, 0),
    fn('COUNT', 0, 1, true),
    fn('MIN', 1, 1, true),
    fn('MAX', 1, 1, true),
    fn('SUM', 1, 1, true),
    fn('AVG', 1, 1, true),
  ].map((f) => [f.name, f]),
);

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
  return [...FUNCTIONS.values()];
}
