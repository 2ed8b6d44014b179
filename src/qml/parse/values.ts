import { QmlError } from '../qml-error.js';
import type { ValueType } from '../qml-types.js';
import { formatOid, OidClass } from '../../catalog/oid.js';

/** A value bound into the SQL, already of its target type. */
export type BoundValue = string | number | boolean | Date;

/** Who runs the query and when: the inputs of macros. */
export interface MacroContext {
  userId: number;
  userName: string;
  now: Date;
}

export const MACROS = ['CURRENT_USER_NAME', 'CURRENT_USER', 'CURRENT_TIME', 'CURRENT_DATE'] as const;

/** The text a macro stands for; unknown macros are rejected. */
export function expandMacro(name: string, ctx: MacroContext, path: string): string {
  switch (name.trim()) {
    case 'CURRENT_USER_NAME':
      return ctx.userName;
    case 'CURRENT_USER':
      return formatOid(OidClass.user, ctx.userId);
    case 'CURRENT_TIME':
      return ctx.now.toISOString();
    case 'CURRENT_DATE': {
      const d = new Date(Date.UTC(ctx.now.getUTCFullYear(), ctx.now.getUTCMonth(), ctx.now.getUTCDate()));
      return d.toISOString();
    }
    default:
      throw new QmlError(path, `unknown macro "${name}" (${MACROS.join(', ')})`);
  }
}

const INTEGER = /^[+-]?\d{1,16}$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,3})?$/;
const OID = /^OR:[A-Za-z_$][\w$.]*:(\d{1,10})$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Converts request or document text to the type of the property it meets. `what` names the
 * value in the message (`parameter "days"`), `path` the element that uses it.
 */
export function convertValue(text: string, type: ValueType, what: string, path: string): BoundValue {
  const t = text.trim();
  const bad = (kind: string): never => {
    throw new QmlError(path, `${what} "${text}" is not ${kind}`);
  };
  switch (type) {
    case 'string':
    case 'oid':
      return text;
    case 'long': {
      const oid = OID.exec(t);
      if (oid) return Number(oid[1]);
      if (!INTEGER.test(t)) return bad('an integer');
      const n = Number(t);
      return Number.isSafeInteger(n) ? n : bad('an integer in range');
    }
    case 'double': {
      if (!DECIMAL.test(t)) return bad('a number');
      const n = Number(t);
      return Number.isFinite(n) ? n : bad('a finite number');
    }
    case 'boolean': {
      const l = t.toLowerCase();
      if (l === '1' || l === 'true') return true;
      if (l === '0' || l === 'false') return false;
      return bad('a boolean (true, false, 1, 0)');
    }
    case 'timestamp': {
      const m = ISO.exec(t);
      if (!m) return bad('an ISO-8601 timestamp');
      const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
      if (+mo < 1 || +mo > 12 || +d < 1 || +d > 31 || +h > 23 || +mi > 59 || +s > 59) return bad('a valid timestamp');
      const z =
        zone === 'Z'
          ? 'Z'
          : zone.length === 3
            ? `${zone}:00`
            : zone.includes(':')
              ? zone
              : `${zone.slice(0, 3)}:${zone.slice(3)}`;
      const ms = frac ? `.${frac.padEnd(3, '0').slice(0, 3)}` : '';
      const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${ms}${z}`);
      if (Number.isNaN(date.getTime()) || (date.getUTCDate() !== +d && zone === 'Z')) return bad('a valid timestamp');
      return date;
    }
  }
}
