import type { Operand } from '../../validate/ast.js';

/**
 * One `reportAttribute` of a template in the `qml/query` layout (Windchill 10 and later), as
 * validated. A value attribute wraps a column, object, function or constant; an input wraps a
 * `parameterValue` and is a parameter of the template named by its id (see
 * docs/reports.md, "Report attributes", for how they select and constrain).
 */
export interface ReportAttribute {
  /** `reportAttributeId` (or the heading when it has none): unique in the template. */
  id: string;
  heading: string;
  kind: 'value' | 'input';
  /** A result column: `alwaysSelect="true"`, or `userCanSelect` not `"false"` (never an input). */
  selected: boolean;
  /** `userCanConstrain="true"`: request parameters named by the id or heading give it a value. */
  userCanConstrain: boolean;
  /** Non-empty `defaultValue`, else null. */
  defaultValue: string | null;
  /** Non-empty `constantValue`, else null: a fixed value the request cannot change. */
  constantValue: string | null;
  /** `defaultValue` and `constantValue` are macro names. */
  isMacro: boolean;
  /** The validated item of a value attribute that can be constrained (null: inputs, constants, aggregates). */
  operand: Operand | null;
  path: string;
}
