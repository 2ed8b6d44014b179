import { hasWildcard, likePattern, literalOf } from '../../common/wildcard.js';
import { parseIsoTimestamp } from './q-timestamp.js';
import { firstLoneSurrogate, loneSurrogateMessage } from '../../common/lone-surrogate.js';
import {
  DEFAULT_SORT,
  FIELDS,
  MAX_ARRAY,
  MAX_CRITERIA,
  MAX_Q,
  QError,
  SORT_KEYS,
  typeClasses,
  type Cond,
  type Criterion,
  type FieldKind,
  type ParsedQ,
  type ParsedQuery,
  type Scalar,
  type SortKey,
} from './q-model.js';

const COMPARISONS = new Set(['eq', 'ne', 'lt', 'lte', 'gt', 'gte']);
const OPERATORS = new Set([...COMPARISONS, 'like', 'ilike', 'in', 'between', 'exists']);
const ORDERED_KINDS = new Set<FieldKind>(['text', 'int', 'timestamp', 'attribute']);
const ATTRIBUTE_PREFIX = 'attributes.';
const MAX_ATTRIBUTE_NAME = 200;

function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // Nested too deep to print (JSON.stringify recurses): name the kind of value instead.
    text = Array.isArray(value) ? '[…]' : '{…}';
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses the `q` parameters of one request (JSON texts from the URL or a form, or objects from
 * a JSON body) into criteria. Throws QError naming the offending key.
 */
export function parseQuery(raw: readonly unknown[]): ParsedQuery {
  if (raw.length === 0) throw new QError('q is required: a JSON object such as {"number":"0000*"}');
  if (raw.length > MAX_Q) throw new QError(`at most ${MAX_Q} q parameters may be combined (got ${raw.length})`);
  const parts = raw.map((q, i) => parseQ(q, `q[${i}]`));
  const given = parts.filter((p) => p.sort !== null);
  const sort = given[0]?.sort ?? DEFAULT_SORT;
  for (const p of given) {
    if (sortText(p.sort!) !== sortText(sort)) {
      throw new QError(`the OR-ed q objects have different sort values (${sortText(sort)} and ${sortText(p.sort!)})`);
    }
  }
  return { parts, sort };
}

function sortText(keys: SortKey[]): string {
  return keys.map((k) => (k.desc ? `-${k.key}` : k.key)).join(',');
}

function parseQ(raw: unknown, path: string): ParsedQ {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new QError(`${path}: not JSON: ${show(raw)}`);
    }
  }
  if (!isPlainObject(value)) throw new QError(`${path}: not a JSON object: ${show(value)}`);
  const lone = firstLoneSurrogate(value, path);
  if (lone) throw new QError(loneSurrogateMessage('q', lone));
  const keys = Object.keys(value);
  const criteriaCount = keys.filter((k) => k !== 'sort').length;
  if (criteriaCount > MAX_CRITERIA) {
    throw new QError(`${path}: more than ${MAX_CRITERIA} criteria (${criteriaCount})`);
  }
  const criteria: Criterion[] = [];
  const normalized: Record<string, unknown> = {};
  let latest = true;
  let sort: SortKey[] | null = null;
  for (const key of keys) {
    const v = value[key];
    const at = `${path}.${key}`;
    if (key === 'sort') {
      sort = parseSort(v, at);
      normalized.sort = sort.map((k) => (k.desc ? `-${k.key}` : k.key));
    } else if (key === 'latest') {
      if (typeof v !== 'boolean') throw new QError(`${at}: ${show(v)} is not a boolean`);
      latest = v;
    } else {
      const criterion = parseCriterion(key, v, at);
      criteria.push(criterion.criterion);
      normalized[key] = criterion.normalized;
    }
  }
  normalized.latest = latest;
  return { criteria, latest, sort, normalized };
}

function parseSort(v: unknown, at: string): SortKey[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length === 0 || list.length > SORT_KEYS.length) {
    throw new QError(`${at}: ${show(v)} is not a sort key or a non-empty array of sort keys`);
  }
  const seen = new Set<string>();
  return list.map((item, i) => {
    if (typeof item !== 'string') throw new QError(`${at}[${i}]: ${show(item)} is not a string`);
    const desc = item.startsWith('-');
    const key = desc ? item.slice(1) : item;
    if (!(SORT_KEYS as readonly string[]).includes(key)) {
      throw new QError(`${at}: unknown sort key ${show(key)} (one of ${SORT_KEYS.join(', ')})`);
    }
    if (seen.has(key)) throw new QError(`${at}: sort key ${show(key)} given twice`);
    seen.add(key);
    return { key, desc };
  });
}

function parseCriterion(key: string, v: unknown, at: string): { criterion: Criterion; normalized: unknown } {
  let kind: FieldKind;
  let attribute: string | undefined;
  if (key.startsWith(ATTRIBUTE_PREFIX)) {
    attribute = key.slice(ATTRIBUTE_PREFIX.length);
    if (attribute === '' || attribute.length > MAX_ATTRIBUTE_NAME) {
      throw new QError(`${at}: an attribute name of 1 to ${MAX_ATTRIBUTE_NAME} characters is needed`);
    }
    kind = 'attribute';
  } else {
    const known = FIELDS.get(key);
    if (!known)
      throw new QError(`${at}: unknown key (known: ${[...FIELDS.keys()].join(', ')}, latest, attributes.<name>, sort)`);
    kind = known;
  }
  const { cond, normalized } = isPlainObject(v) ? parseOperators(kind, v, at) : parsePlain(kind, v, at);
  return { criterion: { key, kind, attribute, conds: cond }, normalized };
}

/** A value without operators: exact match, wildcard match, null or any of an array. */
function parsePlain(kind: FieldKind, v: unknown, at: string): { cond: Cond[]; normalized: unknown } {
  if (Array.isArray(v)) {
    if (v.length > MAX_ARRAY) throw new QError(`${at}: more than ${MAX_ARRAY} array elements (${v.length})`);
    const parsed = v.map((el, i) => {
      if (Array.isArray(el) || isPlainObject(el)) throw new QError(`${at}[${i}]: ${show(el)} is not a plain value`);
      return parsePlain(kind, el, `${at}[${i}]`);
    });
    return { cond: [{ op: 'any', conds: parsed.flatMap((p) => p.cond) }], normalized: parsed.map((p) => p.normalized) };
  }
  if (v === null) return { cond: [{ op: 'empty' }], normalized: null };
  if (typeof v === 'string' && (kind === 'text' || kind === 'attribute') && hasWildcard(v)) {
    return { cond: [{ op: 'like', pattern: likePattern(v, 'q') }], normalized: v };
  }
  const literal = typeof v === 'string' && (kind === 'text' || kind === 'attribute') ? literalOf(v) : v;
  const value = scalar(kind, literal, at);
  return { cond: [{ op: 'eq', value }], normalized: typeof v === 'string' && value === literal ? v : value };
}

function parseOperators(
  kind: FieldKind,
  ops: Record<string, unknown>,
  at: string,
): { cond: Cond[]; normalized: Record<string, unknown> } {
  const names = Object.keys(ops);
  if (names.length === 0) throw new QError(`${at}: an operator object needs at least one operator`);
  const cond: Cond[] = [];
  const normalized: Record<string, unknown> = {};
  for (const op of names) {
    const v = ops[op];
    const opAt = `${at}.${op}`;
    if (!OPERATORS.has(op)) throw new QError(`${opAt}: unknown operator (one of ${[...OPERATORS].join(', ')})`);
    if (kind === 'type' && !['eq', 'ne', 'in'].includes(op)) {
      throw new QError(`${opAt}: type takes only eq, ne and in`);
    }
    if (op === 'exists') {
      if (typeof v !== 'boolean') throw new QError(`${opAt}: ${show(v)} is not a boolean`);
      cond.push({ op: v ? 'present' : 'empty' });
      normalized[op] = v;
    } else if (op === 'like' || op === 'ilike') {
      if (kind !== 'text' && kind !== 'attribute') throw new QError(`${opAt}: only string keys take ${op}`);
      if (typeof v !== 'string') throw new QError(`${opAt}: ${show(v)} is not a string`);
      cond.push({ op, pattern: likePattern(v, 'q') });
      normalized[op] = v;
    } else if (op === 'in') {
      if (!Array.isArray(v)) throw new QError(`${opAt}: ${show(v)} is not an array`);
      if (v.length > MAX_ARRAY) throw new QError(`${opAt}: more than ${MAX_ARRAY} array elements (${v.length})`);
      const values = v.map((el, i) => scalar(kind, el, `${opAt}[${i}]`));
      cond.push({ op, values });
      normalized[op] = values;
    } else if (op === 'between') {
      if (!Array.isArray(v) || v.length !== 2) throw new QError(`${opAt}: ${show(v)} is not an array [low, high]`);
      const low = ordered(kind, v[0], `${opAt}[0]`);
      const high = ordered(kind, v[1], `${opAt}[1]`);
      cond.push({ op, low, high });
      normalized[op] = [low, high];
    } else if (v === null && (op === 'eq' || op === 'ne')) {
      cond.push({ op: op === 'eq' ? 'empty' : 'present' });
      normalized[op] = null;
    } else {
      const value = op === 'eq' || op === 'ne' ? scalar(kind, v, opAt) : ordered(kind, v, opAt);
      cond.push({ op: op as 'eq', value });
      normalized[op] = value;
    }
  }
  return { cond, normalized };
}

/** A value for lt/lte/gt/gte/between: a string, number or timestamp, never a boolean. */
function ordered(kind: FieldKind, v: unknown, at: string): string | number {
  if (!ORDERED_KINDS.has(kind)) throw new QError(`${at}: this key cannot be compared by order`);
  if (typeof v === 'boolean') throw new QError(`${at}: ${show(v)} cannot be compared by order`);
  return scalar(kind, v, at) as string | number;
}

/** Checks one value against the key's type; timestamps come back normalized to UTC. */
function scalar(kind: FieldKind, v: unknown, at: string): Scalar {
  switch (kind) {
    case 'text':
      if (typeof v !== 'string') throw new QError(`${at}: ${show(v)} is not a string`);
      return v;
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v)) throw new QError(`${at}: ${show(v)} is not an integer`);
      if (Math.abs(v) > 2_147_483_647) throw new QError(`${at}: ${show(v)} is out of range`);
      return v;
    case 'timestamp': {
      const ts = typeof v === 'string' ? parseIsoTimestamp(v) : { problem: 'is not an ISO-8601 timestamp' };
      if ('problem' in ts) throw new QError(`${at}: ${show(v)} ${ts.problem}`);
      return ts.iso;
    }
    case 'type':
      if (typeof v !== 'string') throw new QError(`${at}: ${show(v)} is not a class name`);
      if (!typeClasses().has(v)) {
        throw new QError(`${at}: unknown type ${show(v)} (one of ${[...typeClasses().keys()].join(', ')})`);
      }
      return v;
    case 'attribute':
      if (typeof v === 'string' || typeof v === 'boolean') return v;
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      throw new QError(`${at}: ${show(v)} is not a string, number or boolean`);
  }
}
