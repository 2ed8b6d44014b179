import type { Catalog } from '../../catalog/catalog.js';
import { standardCatalog } from '../../catalog/catalog-load.js';
import { hasWildcard, likePattern, literalOf } from '../../common/wildcard.js';
import { parseIsoTimestamp } from './q-timestamp.js';
import { firstLoneSurrogate, loneSurrogateMessage } from '../../common/lone-surrogate.js';
import { checkQ, show } from './q-json-schema.js';
import { mapLegacyKeys } from './q-legacy.js';
import { readRelaxedJson, RelaxedJsonError } from './q-relaxed-json.js';
import {
  DEFAULT_SORT,
  FIELDS,
  MAX_Q,
  QError,
  typeClasses,
  type Cond,
  type Criterion,
  type FieldKind,
  type ParsedQ,
  type ParsedQuery,
  type QType,
  type Scalar,
  type SortKey,
} from './q-model.js';

const ATTRIBUTE_PREFIX = 'attributes.';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses the `q` parameters of one request (JSON texts from the URL or a form, or objects from
 * a JSON body) into criteria. Each object is checked against the JSON Schema of the language
 * (q-json-schema.ts) first; what is left here cannot fail but for the few rules a schema does
 * not express. Throws QError naming the offending key.
 */
export function parseQuery(raw: readonly unknown[], catalog: Catalog = standardCatalog()): ParsedQuery {
  if (raw.length === 0) throw new QError('q is required: a JSON object such as {"number":"0000*"}');
  if (raw.length > MAX_Q) throw new QError(`at most ${MAX_Q} q parameters may be combined (got ${raw.length})`);
  const types = typeClasses(catalog);
  const parts = raw.map((q, i) => parseQ(q, `q[${i}]`, types));
  const given = parts.filter((p) => p.sort !== null);
  const sort = given[0]?.sort ?? DEFAULT_SORT;
  for (const p of given) {
    if (sortText(p.sort!) !== sortText(sort)) {
      throw new QError(`the OR-ed q objects have different sort values (${sortText(sort)} and ${sortText(p.sort!)})`);
    }
  }
  return { parts, sort, types };
}

/** Every name a `type` criterion gives is a class or soft type of the catalog in force. */
function checkTypes(conds: Cond[], types: ReadonlyMap<string, QType>, path: string): void {
  const names = (c: Cond): Scalar[] =>
    c.op === 'eq' || c.op === 'ne'
      ? [c.value]
      : c.op === 'in'
        ? c.values
        : c.op === 'any'
          ? c.conds.flatMap(names)
          : [];
  const unknown = conds.flatMap(names).find((n) => !types.has(String(n)));
  if (unknown !== undefined) {
    throw new QError(`${path}: unknown type ${show(unknown)} (one of ${[...types.keys()].join(', ')})`);
  }
}

function sortText(keys: SortKey[]): string {
  return keys.map((k) => (k.desc ? `-${k.key}` : k.key)).join(',');
}

function parseQ(raw: unknown, path: string, types: ReadonlyMap<string, QType>): ParsedQ {
  const value = mapLegacyKeys(typeof raw === 'string' ? qText(raw, path) : raw, path);
  checkQ(value, path);
  const q = value as Record<string, unknown>;
  const lone = firstLoneSurrogate(q, path);
  if (lone) throw new QError(loneSurrogateMessage('q', lone));
  const criteria: Criterion[] = [];
  const normalized: Record<string, unknown> = {};
  let latest = true;
  let checkedOut: boolean | null = null;
  let sort: SortKey[] | null = null;
  for (const [key, v] of Object.entries(q)) {
    if (key === 'sort') {
      sort = parseSort(v as string | string[], `${path}.${key}`);
      normalized.sort = sort.map((k) => (k.desc ? `-${k.key}` : k.key));
    } else if (key === 'latest') {
      latest = v as boolean;
    } else if (key === 'checkedOut') {
      checkedOut = v as boolean;
      normalized.checkedOut = checkedOut;
    } else {
      const kind = key.startsWith(ATTRIBUTE_PREFIX) ? 'attribute' : FIELDS.get(key)!;
      const attribute = kind === 'attribute' ? key.slice(ATTRIBUTE_PREFIX.length) : undefined;
      const { cond, normalized: n } = isPlainObject(v) ? parseOperators(kind, v) : parsePlain(kind, v);
      if (kind === 'type') checkTypes(cond, types, `${path}.${key}`);
      criteria.push({ key, kind, attribute, conds: cond });
      normalized[key] = n;
    }
  }
  normalized.latest = latest;
  return { criteria, latest, checkedOut, sort, normalized };
}

/**
 * A `q` text: JSON, or the relaxed JSON of the original gateway's clients (single-quoted keys and
 * strings, q-relaxed-json.ts). Strict JSON is read by JSON.parse as before.
 */
function qText(raw: string, path: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    try {
      return readRelaxedJson(raw);
    } catch (e) {
      if (!(e instanceof RelaxedJsonError)) throw e;
      throw new QError(`${path}: not JSON: ${show(raw)}: ${e.reason} at position ${e.position}`);
    }
  }
}

/** Sort keys; the schema checked each, one key may still be given in both directions. */
function parseSort(v: string | string[], at: string): SortKey[] {
  const seen = new Set<string>();
  return (typeof v === 'string' ? [v] : v).map((item) => {
    const desc = item.startsWith('-');
    const key = desc ? item.slice(1) : item;
    if (seen.has(key)) throw new QError(`${at}: sort key ${show(key)} given twice`);
    seen.add(key);
    return { key, desc };
  });
}

/** A value without operators: exact match, wildcard match, null or any of an array. */
function parsePlain(kind: FieldKind, v: unknown): { cond: Cond[]; normalized: unknown } {
  if (Array.isArray(v)) {
    const parsed = v.map((el) => parsePlain(kind, el));
    return { cond: [{ op: 'any', conds: parsed.flatMap((p) => p.cond) }], normalized: parsed.map((p) => p.normalized) };
  }
  if (v === null) return { cond: [{ op: 'empty' }], normalized: null };
  if (typeof v === 'string' && (kind === 'text' || kind === 'attribute') && hasWildcard(v)) {
    return { cond: [{ op: 'like', pattern: likePattern(v, 'q') }], normalized: v };
  }
  const literal = typeof v === 'string' && (kind === 'text' || kind === 'attribute') ? literalOf(v) : v;
  const value = scalar(kind, literal as Scalar);
  return { cond: [{ op: 'eq', value }], normalized: typeof v === 'string' && value === literal ? v : value };
}

function parseOperators(
  kind: FieldKind,
  ops: Record<string, unknown>,
): { cond: Cond[]; normalized: Record<string, unknown> } {
  const cond: Cond[] = [];
  const normalized: Record<string, unknown> = {};
  for (const [op, v] of Object.entries(ops)) {
    if (op === 'exists') {
      cond.push({ op: v ? 'present' : 'empty' });
      normalized[op] = v;
    } else if (op === 'like' || op === 'ilike') {
      cond.push({ op, pattern: likePattern(v as string, 'q') });
      normalized[op] = v;
    } else if (op === 'in') {
      const values = (v as Scalar[]).map((el) => scalar(kind, el));
      cond.push({ op, values });
      normalized[op] = values;
    } else if (op === 'between') {
      const [low, high] = (v as Scalar[]).map((el) => scalar(kind, el));
      cond.push({ op, low, high });
      normalized[op] = [low, high];
    } else if (v === null) {
      cond.push({ op: op === 'eq' ? 'empty' : 'present' });
      normalized[op] = null;
    } else {
      const value = scalar(kind, v as Scalar);
      cond.push({ op: op as 'eq', value });
      normalized[op] = value;
    }
  }
  return { cond, normalized };
}

/** A checked value as it is compared: timestamps normalized to UTC. */
function scalar(kind: FieldKind, v: Scalar): Scalar {
  return kind === 'timestamp' ? (parseIsoTimestamp(v as string) as { iso: string }).iso : v;
}
