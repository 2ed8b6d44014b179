import type { Prisma } from '../generated/prisma/client.js';
import type { QmlTemplate } from './qml-ast.js';
import { operandType } from './qml-ast.js';
import { parseQml, type ParseOptions } from './qml-parse.js';
import { planQuery, type PlanRequest } from './qml-plan.js';
import { renderSql } from './qml-sql.js';
import { javaTypeName, type ValueType } from './qml-types.js';
import { validateQml } from './qml-validate.js';

export { QmlError } from './qml-error.js';
export type { QmlTemplate } from './qml-ast.js';
export type { PlanRequest } from './qml-plan.js';
export type { ValueType } from './qml-types.js';

/** A result column: its heading, its value type and the type name shown to callers. */
export interface ResultColumn {
  heading: string;
  type: ValueType;
  typeName: string;
}

export interface CompiledQuery {
  sql: Prisma.Sql;
  columns: ResultColumn[];
  /** The value each declared parameter took (null: not used by this execution). */
  parameters: { name: string; value: string | null }[];
}

/** Parse and validate: the request-independent part, worth caching per template text. */
export function compileTemplate(input: string | Uint8Array, options?: ParseOptions): QmlTemplate {
  return validateQml(parseQml(input, options));
}

/** Plan and render one execution of a compiled template. */
export function buildQuery(template: QmlTemplate, request: PlanRequest): CompiledQuery {
  const { plan, parameters } = planQuery(template, request);
  return {
    sql: renderSql(plan),
    columns: plan.select.map((s) => ({
      heading: s.heading,
      type: s.type,
      typeName: s.objectClass ?? javaTypeName(s.type),
    })),
    parameters,
  };
}

/** Headings and types as far as the template alone tells them (constants count as strings). */
export function templateColumns(template: QmlTemplate): ResultColumn[] {
  return template.select.map((s) => {
    const type = operandType(s.expr) ?? (s.expr.k === 'const' ? (s.expr.hint ?? 'string') : 'string');
    return { heading: s.heading, type, typeName: s.objectClass ?? javaTypeName(type) };
  });
}
