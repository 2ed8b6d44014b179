import { Sql } from '../catalog/sql.js';
import type { QmlTemplate } from './validate/ast.js';
import { DEFAULT_LIMITS, type QmlLimits } from './qml-limits.js';
import type { PlanRequest } from './plan/plan-types.js';
import { planAndRender, type CompiledQuery, type ResultColumn } from './qml-query.js';
import { Rebind, RequestReader, type Derived, type Question } from './plan/request.js';

/** Shapes kept per template at most (the least recently used go first). */
export const SHAPES_PER_TEMPLATE = 16;

/** The SQL of one template for the requests that answer a trace's questions the same way. */
interface Entry {
  maxListValues: number;
  trace: Question[];
  strings: readonly string[];
  /** Constants, and Rebind values computed from each request. */
  values: readonly unknown[];
  columns: ResultColumn[];
  genericPlan: boolean;
  parameters: { name: string; value: Derived<string> | null }[];
}

/**
 * The rendered SQL of compiled templates per parameter shape: buildQuery's result without
 * planning and rendering again. An execution is planned once recording (plan/request.ts): the
 * questions it asked of the request and their answers are the entry's key, and every value of
 * the request in the SQL keeps the function that computes it. A request giving the same answers
 * (asked in order, so each question meets the request it was written for) gets the entry's
 * text with its own values. Only executions that succeeded are kept, so errors (a value that does
 * not convert, a limit) come from planning itself, as without the cache. Entries live as long as
 * their compiled template (a WeakMap: the template cache bounds those).
 */
export class QueryCache {
  private readonly entries = new WeakMap<QmlTemplate, Entry[]>();
  hits = 0;
  misses = 0;

  constructor(private readonly shapes = SHAPES_PER_TEMPLATE) {}

  /** buildQuery(template, request, limits), from a kept entry when the request's shape has one. */
  build(
    template: QmlTemplate,
    request: PlanRequest,
    limits: Partial<Pick<QmlLimits, 'maxListValues'>> = {},
  ): CompiledQuery {
    const maxListValues = limits.maxListValues ?? DEFAULT_LIMITS.maxListValues;
    let list = this.entries.get(template);
    if (!list) this.entries.set(template, (list = []));
    for (let i = 0; i < list.length; i++) {
      const entry = list[i];
      if (entry.maxListValues !== maxListValues || !answersAlike(entry.trace, request)) continue;
      const query = tryBind(entry, request);
      list.splice(i, 1);
      if (!query) break;
      list.unshift(entry);
      this.hits++;
      return query;
    }
    this.misses++;
    const reader = new RequestReader(request, true);
    let recorded: ReturnType<typeof planAndRender>;
    try {
      recorded = planAndRender(template, reader, { maxListValues });
    } finally {
      reader.release();
    }
    const entry: Entry = {
      maxListValues,
      trace: reader.trace!,
      strings: recorded.sql.strings,
      values: recorded.sql.values,
      columns: recorded.columns,
      genericPlan: recorded.genericPlan,
      parameters: recorded.parameters.map((p, i) => ({ name: p.name, value: recorded.used[i] })),
    };
    list.unshift(entry);
    if (list.length > this.shapes) list.length = this.shapes;
    return bind(entry, request);
  }

  /** The shapes kept for a template (for tests). */
  shapesOf(template: QmlTemplate): number {
    return this.entries.get(template)?.length ?? 0;
  }
}

function answersAlike(trace: readonly Question[], r: PlanRequest): boolean {
  try {
    for (const q of trace) if (q.ask(r) !== q.answer) return false;
    return true;
  } catch {
    // A question meets only requests that answered the earlier ones alike: none throws. Should
    // one, the request is planned afresh.
    return false;
  }
}

function bind(e: Entry, r: PlanRequest): CompiledQuery {
  return {
    sql: new Sql(
      e.strings,
      e.values.map((v) => (v instanceof Rebind ? v.of(r) : v)),
    ),
    columns: e.columns.map((c) => ({ ...c })),
    parameters: e.parameters.map((p) => ({
      name: p.name,
      value: p.value === null ? null : p.value.of ? p.value.of(r) : p.value.now,
    })),
    genericPlan: e.genericPlan,
  };
}

/** The entry bound to a request; null (the entry dropped, the request planned) should binding throw. */
function tryBind(e: Entry, r: PlanRequest): CompiledQuery | null {
  try {
    return bind(e, r);
  } catch {
    return null;
  }
}
