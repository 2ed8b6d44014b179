import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';

/**
 * JSON Schemas that validate what users send (the `q` language, the dataset format) carry the
 * wording of their problems in an annotation, `x-message`: a text for every keyword of the node,
 * or texts by keyword (`{ "type": "must be a string", "maxLength": "is too long" }`). An `anyOf`
 * may word the case where every branch failed on the value's kind. Placeholders in braces are
 * filled by the caller (see SchemaProblem).
 */
export const MESSAGE = 'x-message';

/** An Ajv (JSON Schema 2020-12) that stops at the first problem and knows `x-message`. */
export function schemaAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: false, verbose: true, strict: false });
  ajv.addKeyword({ keyword: MESSAGE, schemaType: ['string', 'object'] });
  return ajv;
}

/** The one problem of a value that failed validation, to tell the caller. */
export interface SchemaProblem {
  /** The keys and array indexes from the root to the value at fault. */
  path: (string | number)[];
  /** The key at fault within that value: a missing, unknown or misnamed one. */
  key: string | undefined;
  keyword: string;
  params: Record<string, unknown>;
  /** The value at fault (for a misnamed key: the key). */
  value: unknown;
  /** The schema's wording of the problem (x-message), if it has one. */
  message: string | undefined;
}

/** Errors that say a value has another kind than a schema branch wants: not what the caller got wrong. */
const MISMATCH = new Set(['type', 'required']);
/** Errors that only say that an inner one failed. */
const WRAPPERS = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'propertyNames', 'dependentSchemas']);

/**
 * The problem of a failed validation (Ajv with allErrors false and verbose) that names the value
 * at fault most closely: the deepest one (a misnamed key is below its object), and there any but
 * a mismatch of kind. When only mismatches are left (every branch of an anyOf failed on the
 * value's kind), the anyOf's own wording if it has one, else the first branch's problem.
 */
export function schemaProblem(root: unknown, errors: readonly ErrorObject[]): SchemaProblem {
  const depth = (e: ErrorObject) =>
    (e.instancePath === '' ? 0 : e.instancePath.split('/').length - 1) + (e.propertyName === undefined ? 0 : 1);
  // A schema branch whose type the value does not have may report its other keywords too: noise.
  const node = (e: ErrorObject) => `${e.instancePath} ${e.schemaPath.replace(/\/[^/]*$/, '')}`;
  const wrongKind = new Set(errors.filter((e) => e.keyword === 'type').map(node));
  const relevant = errors.filter((e) => e.keyword === 'type' || !wrongKind.has(node(e)));
  const deepest = Math.max(...relevant.filter((e) => !WRAPPERS.has(e.keyword)).map(depth));
  const here = relevant.filter((e) => depth(e) === deepest);
  const worded = (e: ErrorObject) => messageOf(e) !== undefined;
  const pick =
    here.find((e) => !MISMATCH.has(e.keyword) && !WRAPPERS.has(e.keyword)) ??
    here.find((e) => e.keyword === 'anyOf' && worded(e)) ??
    here.find((e) => MISMATCH.has(e.keyword)) ??
    here[0] ??
    errors[0];
  const params = pick.params as Record<string, unknown>;
  const key = pick.propertyName ?? params.missingProperty ?? params.additionalProperty;
  return {
    path: steps(root, pick.instancePath),
    key: typeof key === 'string' ? key : undefined,
    keyword: pick.keyword,
    params,
    value: pick.data,
    message: messageOf(pick),
  };
}

function messageOf(e: ErrorObject): string | undefined {
  const m = (e.parentSchema as Record<string, unknown> | undefined)?.[MESSAGE];
  if (typeof m === 'string') return m;
  if (m && typeof m === 'object') {
    const byKeyword = (m as Record<string, unknown>)[e.keyword];
    return typeof byKeyword === 'string' ? byKeyword : undefined;
  }
  return undefined;
}

/** A JSON pointer into `root` as keys and array indexes. */
function steps(root: unknown, pointer: string): (string | number)[] {
  if (pointer === '') return [];
  const out: (string | number)[] = [];
  let at = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const step = Array.isArray(at) ? Number(key) : key;
    out.push(step);
    at = at && typeof at === 'object' ? (at as Record<string | number, unknown>)[step] : undefined;
  }
  return out;
}

/** A path as messages write it: `objects[12].files[0].filename`, `attributes.x` for keys with dots. */
export function pathText(start: string, path: readonly (string | number)[]): string {
  let out = start;
  for (const step of path) out += typeof step === 'number' ? `[${step}]` : out === '' ? step : `.${step}`;
  return out;
}

/** A message template with its `{name}` placeholders filled. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
