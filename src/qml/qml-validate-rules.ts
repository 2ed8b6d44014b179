import type { Operand } from './qml-ast.js';
import { operandType } from './qml-ast.js';
import { fail, only, requiredAttr } from './qml-element-rules.js';
import type { QmlElement } from './qml-parse.js';
import { isNumeric, typeFromHint, type ValueType } from './qml-types.js';

/** Value rules of the validator (qml-validate.ts): each throws a QmlError naming the element. */

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

/** Result type of a function call, checking what can be checked before values are known. */
export function functionType(name: string, args: Operand[], path: string): ValueType | null {
  const t = args.map(operandType);
  switch (name) {
    case 'UPPER':
    case 'LOWER':
    case 'CONCAT':
      return 'string';
    case 'SUBSTRING':
      for (const i of [1, 2]) {
        if (t[i] !== null && !isNumeric(t[i]!)) fail(args[i].path, `SUBSTRING needs a number here, not a ${t[i]}`);
      }
      return 'string';
    case 'LENGTH':
    case 'COUNT':
      return 'long';
    case 'SYSDATE':
      return 'timestamp';
    case 'ADD':
    case 'SUBTRACT': {
      if (t[1] === 'timestamp' && (name === 'SUBTRACT' || t[0] === 'timestamp')) {
        fail(path, `${name} takes a timestamp and a number of days, or two numbers`);
      }
      if (t[0] === 'timestamp' || t[1] === 'timestamp') return 'timestamp';
      for (let i = 0; i < 2; i++) {
        if (t[i] !== null && !isNumeric(t[i]!)) fail(args[i].path, `${name} needs a number here, not a ${t[i]}`);
      }
      return t[0] === 'long' && t[1] === 'long' ? 'long' : 'double';
    }
    case 'MIN':
    case 'MAX':
      if (t[0] === 'boolean') fail(args[0].path, `${name} needs a number, text or timestamp, not a boolean`);
      return t[0] ?? 'string';
    case 'SUM':
      if (t[0] !== null && !isNumeric(t[0])) fail(args[0].path, `SUM needs a number, not a ${t[0]}`);
      return t[0] === 'long' ? 'long' : 'double';
    case 'AVG':
      if (t[0] !== null && !isNumeric(t[0])) fail(args[0].path, `AVG needs a number, not a ${t[0]}`);
      return 'double';
    default:
      return null;
  }
}

export function checkComparable(l: Operand, r: Operand, path: string): void {
  const a = operandType(l);
  const b = operandType(r);
  if (a === null || b === null || a === b) return;
  if (isNumeric(a) && isNumeric(b)) return;
  if ((a === 'oid' && b === 'string') || (a === 'string' && b === 'oid')) return;
  fail(path, `cannot compare a ${a} with a ${b}`);
}
