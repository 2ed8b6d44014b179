import { QError } from './q-model.js';

/**
 * The criteria keys of the original gateway's query service (and of its core query filters),
 * read as keys of the `q` language (docs/query.md, "Clients of the original gateway"):
 *
 * | original | ours |
 * |---|---|
 * | `type`, `name`, `number`, `state` | the same keys |
 * | `creator`, `modifier` | `createdBy`, `modifiedBy` |
 * | `config_spec`: `latest` | `latest: true` (the only config spec supported) |
 * | `latest_iteration`: `yes`/`no` (or true/false, 1/0, on/off) | `latest: true`/`false` |
 *
 * The original's keys are read in any letter case (`Name`, `CONFIG_SPEC`). A key and the key it
 * stands for given together is an error, as is a config spec other than `latest`.
 */

/** The config specs supported, in lower case. */
export const CONFIG_SPECS = ['latest'] as const;

const RENAMED: ReadonlyMap<string, string> = new Map([
  ['type', 'type'],
  ['name', 'name'],
  ['number', 'number'],
  ['state', 'state'],
  ['creator', 'createdBy'],
  ['modifier', 'modifiedBy'],
]);

const YES = new Set(['yes', 'true', 'on', '1']);
const NO = new Set(['no', 'false', 'off', '0']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The object with the original's keys replaced by ours; anything that is not a plain object, or
 * has none of the original's keys, is returned as it is (the schema then judges it).
 */
export function mapLegacyKeys(value: unknown, path: string): unknown {
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (!keys.some((k) => legacyKey(k) !== null)) return value;
  const out: Record<string, unknown> = {};
  const from = new Map<string, string>();
  const put = (key: string, v: unknown, original: string) => {
    const earlier = from.get(key);
    if (earlier !== undefined) {
      throw new QError(`${path}: ${key} is given twice (as ${earlier} and as ${original})`);
    }
    from.set(key, original);
    Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  };
  for (const key of keys) {
    const v = value[key];
    const legacy = legacyKey(key);
    if (legacy === 'config_spec') put('latest', configSpec(v, `${path}.${key}`), key);
    else if (legacy === 'latest_iteration') put('latest', yesNo(v, `${path}.${key}`), key);
    else if (legacy !== null) put(RENAMED.get(legacy)!, v, key);
    else put(key, v, key);
  }
  return out;
}

/** The original's key (in lower case) a key is, in any letter case; null for any other key. */
function legacyKey(key: string): string | null {
  const lower = key.toLowerCase();
  if (lower === 'config_spec' || lower === 'latest_iteration') return lower;
  // Our own keys spelled as ours are not the original's (type, name, number, state are both).
  if (RENAMED.has(lower) && (key !== lower || RENAMED.get(lower) !== lower)) return lower;
  return null;
}

function configSpec(v: unknown, at: string): true {
  const supported = CONFIG_SPECS.join(', ');
  if (typeof v !== 'string') throw new QError(`${at}: ${quoted(v)} is not a config spec (supported: ${supported})`);
  if (v.trim().toLowerCase() === 'latest') return true;
  throw new QError(`${at}: config spec ${quoted(v)} is not supported (supported: ${supported})`);
}

function yesNo(v: unknown, at: string): boolean {
  if (typeof v === 'boolean') return v;
  const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim().toLowerCase() : null;
  if (text !== null && YES.has(text)) return true;
  if (text !== null && NO.has(text)) return false;
  throw new QError(`${at}: ${quoted(v)} is not yes or no`);
}
