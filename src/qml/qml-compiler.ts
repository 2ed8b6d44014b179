import type { Catalog } from '../catalog/catalog.js';
import type { Sql } from '../catalog/sql.js';
import type { QmlTemplate } from './qml-ast.js';
import { operandType } from './qml-ast.js';
import { QmlLimitError } from './qml-error.js';
import { bindReportAttributes } from './qml-layout-new-bind.js';
import { compileQueryLayout, isQueryLayout } from './qml-layout-new.js';
import { DEFAULT_LIMITS, PG_MAX_BOUND_VALUES, type QmlLimits } from './qml-limits.js';
import { parseQml } from './qml-parse.js';
import { planQuery, type PlanRequest } from './qml-plan.js';
import { genericPlanFits, renderSql } from './qml-sql.js';
import { javaTypeName, type ValueType } from './qml-types.js';
import { validateQml } from './qml-validate.js';

export { QmlError, QmlLimitError, QmlProblems, type QmlLimitName, type QmlProblem } from './qml-error.js';
export { DEFAULT_LIMITS, type QmlLimits } from './qml-limits.js';
export type { QmlTemplate } from './qml-ast.js';
export type { ReportAttribute } from './qml-layout-new-types.js';
export type { PlanRequest } from './qml-plan.js';
export type { ValueType } from './qml-types.js';

/** A result column: its heading, its value type and the type name shown to callers. */
export interface ResultColumn {
  heading: string;
  type: ValueType;
  typeName: string;
}

export interface CompiledQuery {
  /** SQL text with `$n` placeholders and its bound values. */
  sql: Sql;
  columns: ResultColumn[];
  /** The value each declared parameter took (null: not used by this execution). */
  parameters: { name: string; value: string | null }[];
  /**
   * Whether one plan made for every value (a prepared statement's generic plan) serves this SQL
   * as well as plans made for the values: see genericPlanFits.
   */
  genericPlan: boolean;
}

export interface CompileOptions {
  /** Largest accepted document in bytes (UTF-8); 1 MiB by default. */
  maxBytes?: number;
  /** Size limits; DEFAULT_LIMITS for those not given. */
  limits?: Partial<QmlLimits>;
  /** The type catalog to resolve names in; the standard catalog by default. */
  catalog?: Catalog;
}

/**
 * Parse and validate: the request-independent part, worth caching per template text. Both
 * layouts are accepted: `qml/statement/query` and, since Windchill 10, `qml/query`.
 */
export function compileTemplate(input: string | Uint8Array, options: CompileOptions = {}): QmlTemplate {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const root = parseQml(input, { maxBytes: options.maxBytes, maxNesting: limits.maxNesting });
  return isQueryLayout(root)
    ? compileQueryLayout(root, limits, options.catalog)
    : validateQml(root, limits, options.catalog);
}

/** The layout a template is written in: `statement` (qml/statement/query) or `query` (qml/query). */
export function templateLayout(template: QmlTemplate): 'statement' | 'query' {
  return template.reportAttributes ? 'query' : 'statement';
}

/** Plan and render one execution of a compiled template (limits: those of the execution). */
export function buildQuery(
  template: QmlTemplate,
  request: PlanRequest,
  limits: Partial<Pick<QmlLimits, 'maxListValues'>> = {},
): CompiledQuery {
  const bound = bindReportAttributes(template, request.values);
  const { plan, parameters } = planQuery(bound.template, { ...request, values: bound.values }, limits);
  const sql = renderSql(plan);
  if (sql.values.length > PG_MAX_BOUND_VALUES) {
    throw new QmlLimitError(
      '',
      `the query needs ${sql.values.length} bound values, more than the ${PG_MAX_BOUND_VALUES} PostgreSQL takes: use fewer constants or list values`,
      'boundValues',
    );
  }
  return {
    sql,
    columns: plan.select.map((s) => ({
      heading: s.heading,
      type: s.type,
      typeName: s.objectClass ?? javaTypeName(s.type),
    })),
    parameters,
    genericPlan: genericPlanFits(plan),
  };
}

/** Headings and types as far as the template alone tells them (constants count as strings). */
export function templateColumns(template: QmlTemplate): ResultColumn[] {
  return template.select.map((s) => {
    const type = operandType(s.expr) ?? (s.expr.k === 'const' ? (s.expr.hint ?? 'string') : 'string');
    return { heading: s.heading, type, typeName: s.objectClass ?? javaTypeName(type) };
  });
}
