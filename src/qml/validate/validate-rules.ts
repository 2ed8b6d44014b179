import type { Operand, ParameterDecl } from './ast.js';
import { QmlError } from '../qml-error.js';
import { typeCall, type ArgInfo, type CallTyping } from '../functions/function-types.js';
import { findFunction, type FunctionDef } from '../functions/functions.js';
import { convertValue } from '../parse/values.js';
import { operandType } from './ast.js';
import { fail, only, requiredAttr } from '../parse/element-rules.js';
import type { QmlElement } from '../parse/parse.js';
import { isNumeric, typeFromHint, type ValueType } from '../qml-types.js';

/** Value rules of the validator (validate.ts): each throws a QmlError naming the element. */

/** A `type` attribute as the type of a custom attribute (never `oid`). */
export function propertyHint(hint: string | undefined) {
  const t = typeFromHint(hint);
  return t === 'oid' ? null : t;
}

export function defaultHeading(el: QmlElement): string {
  if (el.name === 'function') return el.attrs.name?.trim() ?? 'function';
  return el.text || el.attrs.propertyName?.trim() || el.attrs.alias?.trim() || el.name;
}

/** `<property name="container"><property name="name"/></property>` → `container.name`. */
export function propertyChain(el: QmlElement): string | null {
  const parts: string[] = [];
  for (let parent = el; parent.children.length > 0; parent = parent.children[0]) {
    if (parent.children.length > 1) fail(parent.children[1].path, 'a property chain has one property per level');
    only(parent, ['property']);
    parts.push(requiredAttr(parent.children[0], 'name'));
  }
  return parts.length ? parts.join('.') : null;
}

/** The function a `function` element names, its number of arguments checked. */
export function functionOf(el: QmlElement): FunctionDef {
  const name = requiredAttr(el, 'name');
  const def = findFunction(name) ?? fail(el.path, `unknown function "${name}"`);
  const n = el.children.length;
  if (n < def.minArgs || n > def.maxArgs) {
    const want = def.minArgs === def.maxArgs ? `${def.minArgs}` : `${def.minArgs} to ${def.maxArgs}`;
    fail(el.path, `${name.trim().toUpperCase()} takes ${want} argument(s), found ${n}`);
  }
  return def;
}

/**
 * Types a function call (functions/function-types.ts) and checks its constant arguments convert to the
 * type their place takes, so that a wrong argument is a 400 naming the function and the
 * argument before any request. `params`: the declared parameters, whose types are hints.
 */
export function typeFunctionCall(
  def: FunctionDef,
  name: string,
  args: Operand[],
  params: ReadonlyMap<string, ParameterDecl>,
  path: string,
): CallTyping {
  const written = name.trim().toUpperCase();
  const info = args.map((a): ArgInfo => ({
    type: operandType(a),
    hint: a.k === 'const' ? a.hint : a.k === 'param' ? (params.get(a.name)?.hint ?? null) : null,
    constant: a.k === 'const' && !a.isMacro ? a.text : null,
  }));
  const call = typeCall(def.name, written, info, (i, reason) => fail(i === null ? path : args[i].path, reason));
  args.forEach((a, i) => {
    const p = call.args[i];
    if (a.k !== 'const' || a.isMacro || 'setting' in p || p.type === 'string') return;
    // A long place takes a decimal as a double (plan/plan-expr.ts), as a comparison does.
    const type = p.type === 'long' && !INTEGER.test(a.text) && !a.text.trim().startsWith('OR:') ? 'double' : p.type;
    try {
      convertValue(a.text, type, 'value', a.path);
    } catch (e) {
      if (!(e instanceof QmlError)) throw e;
      fail(a.path, `${written} needs ${WANTED[type]} as argument ${i + 1}, not "${a.text}"`);
    }
  });
  return call;
}

const INTEGER = /^\s*[+-]?\d+\s*$/;

const WANTED: Record<ValueType, string> = {
  string: 'a text',
  oid: 'an OID',
  long: 'a whole number',
  double: 'a number',
  boolean: 'a boolean (true, false, 1, 0)',
  timestamp: 'an ISO-8601 timestamp',
};

export function checkComparable(l: Operand, r: Operand, path: string): void {
  const a = operandType(l);
  const b = operandType(r);
  if (a === null || b === null || a === b) return;
  if (isNumeric(a) && isNumeric(b)) return;
  if ((a === 'oid' && b === 'string') || (a === 'string' && b === 'oid')) return;
  fail(path, `cannot compare a ${a} with a ${b}`);
}
