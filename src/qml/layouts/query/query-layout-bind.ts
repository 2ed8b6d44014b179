import type { Condition, Operand, QmlTemplate } from '../../validate/ast.js';
import { fixed, requestParams, type Derived, type ParamSource, type RequestReader } from '../../plan/request.js';

/**
 * What the report attributes of a `qml/query` template make of one request (docs/reports.md,
 * "Report attributes"): the value each input takes, the conditions on inputs without a value
 * removed, and a criterion for each value attribute that has a value. The result is a plain
 * template and the parameter values for the planner; other templates pass unchanged. Request
 * values are read through `reader` (plan/request.ts): whether one is given is a shape read.
 */
export function bindReportAttributes(
  t: QmlTemplate,
  reader: RequestReader,
): { template: QmlTemplate; params: ParamSource } {
  if (!t.reportAttributes) return { template: t, params: requestParams(reader) };
  // The request values, but the inputs' own (a null: none).
  const out = new Map<string, Derived<string> | null>();
  const rest = requestParams(reader, true);
  const params: ParamSource = { text: (name) => (out.has(name) ? (out.get(name) ?? undefined) : rest.text(name)) };
  const given = (name: string): Derived<string> | null => {
    const set = reader.ask((r) => {
      const v = Object.prototype.hasOwnProperty.call(r.values, name) ? r.values[name] : undefined;
      return v !== undefined && v.trim() !== '';
    });
    return set ? reader.read((r) => r.values[name]) : null;
  };
  // A heading names a request parameter only where no id or parameter has that name.
  const taken = new Set([...t.reportAttributes.map((a) => a.id), ...t.parameters.map((p) => p.name)]);
  const byHeading = (a: { id: string; heading: string }) =>
    a.heading !== a.id && taken.has(a.heading) ? null : given(a.heading);
  const unset = new Set<string>();
  const criteria: Condition[] = [];
  for (const a of t.reportAttributes) {
    const requested = a.userCanConstrain && a.constantValue === null ? (given(a.id) ?? byHeading(a)) : null;
    if (a.kind === 'input') {
      // The parameter named by the id has the constant or default value as its default.
      out.set(a.id, requested);
      if (requested === null && a.constantValue === null && a.defaultValue === null) unset.add(a.id);
      continue;
    }
    if (!a.operand) continue;
    const fromTemplate = a.constantValue ?? (a.userCanConstrain ? a.defaultValue : null);
    const text = requested ?? (fromTemplate === null ? null : fixed(fromTemplate));
    if (text === null) continue;
    const isMacro = requested === null && a.isMacro;
    const like = !isMacro && reader.shape(text, (s) => /[*?%]/.test(s));
    const right: Operand = isMacro
      ? { k: 'const', text: text.now.trim(), isMacro, hint: null, path: a.path }
      : { k: 'const', text: text.now, isMacro, hint: null, path: a.path, ...(text.of ? { of: text.of } : {}) };
    criteria.push({ k: 'cmp', op: like ? 'like' : 'equal', left: a.operand, right, path: a.path });
  }
  const where = t.where ? prune(t.where, unset) : null;
  const parts = [...(where ? [where] : []), ...criteria];
  const bound: Condition | null =
    parts.length === 0 ? null : parts.length === 1 ? parts[0] : { k: 'and', parts, path: t.where?.path ?? '' };
  return { template: { ...t, where: bound }, params };
}

/** The condition without the parts that use an input without a value (null: nothing left). */
function prune(c: Condition, unset: ReadonlySet<string>): Condition | null {
  if (unset.size === 0) return c;
  switch (c.k) {
    case 'and':
    case 'or': {
      const parts = c.parts.map((p) => prune(p, unset)).filter((p): p is Condition => p !== null);
      return parts.length === 0 ? null : { ...c, parts };
    }
    case 'cmp':
      return uses(c.left, unset) || uses(c.right, unset) ? null : c;
    case 'null':
      return uses(c.operand, unset) ? null : c;
    case 'in': {
      if (uses(c.operand, unset)) return null;
      const items = c.items.filter((i) => !uses(i.source, unset));
      return items.length === 0 ? null : { ...c, items };
    }
  }
}

function uses(o: Operand, unset: ReadonlySet<string>): boolean {
  if (o.k === 'param') return unset.has(o.name);
  if (o.k === 'fn') return o.args.some((a) => uses(a, unset));
  return false;
}
