import type { Catalog } from '../catalog/catalog.js';
import type { QmlTemplate } from './validate/ast.js';
import { operandType } from './validate/ast.js';
import { compileQueryLayout, isQueryLayout } from './layouts/query/query-layout.js';
import { DEFAULT_LIMITS, type QmlLimits } from './qml-limits.js';
import { parseQml } from './parse/parse.js';
import type { PlanRequest } from './plan/plan.js';
import { planAndRender, type CompiledQuery, type ResultColumn } from './qml-query.js';
import { RequestReader } from './plan/request.js';
import { javaTypeName } from './qml-types.js';
import { validateQml } from './validate/validate.js';

export { QmlError, QmlLimitError, QmlProblems, type QmlLimitName, type QmlProblem } from './qml-error.js';
export { DEFAULT_LIMITS, type QmlLimits } from './qml-limits.js';
export type { QmlTemplate } from './validate/ast.js';
export type { ReportAttribute } from './layouts/query/query-layout-types.js';
export type { PlanRequest } from './plan/plan.js';
export type { ReadableScope } from './plan/plan.js';
export type { ValueType } from './qml-types.js';
export type { CompiledQuery, ResultColumn } from './qml-query.js';
export { QueryCache } from './qml-query-cache.js';

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

/**
 * Plan and render one execution of a compiled template (limits: those of the execution).
 * QueryCache (qml-query-cache.ts) gives the same result, keeping the SQL per template and
 * parameter shape: keyed by the answers to the questions planning asked of the request
 * (plan/request.ts: is a parameter set, how many parts has an in-list, has a like pattern a
 * literal prefix, does a value convert, is the caller an administrator …), the request's values
 * bound again on each hit.
 */
export function buildQuery(
  template: QmlTemplate,
  request: PlanRequest,
  limits: Partial<Pick<QmlLimits, 'maxListValues'>> = {},
): CompiledQuery {
  const { sql, columns, parameters, genericPlan } = planAndRender(template, new RequestReader(request, false), limits);
  return { sql, columns, parameters, genericPlan };
}

/** Headings and types as far as the template alone tells them (constants count as strings). */
export function templateColumns(template: QmlTemplate): ResultColumn[] {
  return template.select.map((s) => {
    const type = operandType(s.expr) ?? (s.expr.k === 'const' ? (s.expr.hint ?? 'string') : 'string');
    return { heading: s.heading, type, typeName: s.objectClass ?? javaTypeName(type) };
  });
}
