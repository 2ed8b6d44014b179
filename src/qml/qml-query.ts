import type { Sql } from '../catalog/sql.js';
import type { QmlTemplate } from './validate/ast.js';
import { QmlLimitError } from './qml-error.js';
import { bindReportAttributes } from './layouts/query/query-layout-bind.js';
import { PG_MAX_BOUND_VALUES, type QmlLimits } from './qml-limits.js';
import { planWith } from './plan/plan.js';
import type { Derived, RequestReader } from './plan/request.js';
import { genericPlanFits, renderSql } from './sql/sql.js';
import { javaTypeName, type ValueType } from './qml-types.js';

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

/**
 * Plan and render one execution, reading the request through `reader`: recording, the SQL's
 * values of the request are Rebind values and `used` tells how to read each parameter's value.
 */
export function planAndRender(
  template: QmlTemplate,
  reader: RequestReader,
  limits: Partial<Pick<QmlLimits, 'maxListValues'>>,
): CompiledQuery & { used: (Derived<string> | null)[] } {
  const bound = bindReportAttributes(template, reader);
  const { plan, parameters, used } = planWith(bound.template, reader, bound.params, limits);
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
    used,
  };
}
