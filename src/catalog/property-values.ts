import type { CatalogClass, PropertyType } from './catalog-model.js';

/**
 * Values of the properties a class keeps in JSON (its own column or its master's), checked
 * against their declared types: by the dataset import and by the object services alike.
 */

export type JsonScalar = string | number | boolean | null;

/** Reports a value that does not pass, naming where it is; never returns. */
export type Fail = (path: string, message: string) => never;

export interface JsonProperty {
  key: string;
  type: PropertyType;
}

/** The properties a class keeps in its own JSON column (or its master's), by property path: their JSON key and type. */
export function jsonProperties(cls: CatalogClass, aux: 'self' | 'master' = 'self'): Map<string, JsonProperty> {
  const out = new Map<string, JsonProperty>();
  for (const [path, p] of [...cls.properties, ...cls.derived]) {
    if ('json' in p && p.json.at.aux === aux && !out.has(path))
      out.set(path, { key: p.json.key, type: p.type as PropertyType });
  }
  return out;
}

/** The properties a versioned class keeps in its master's JSON (`via: master`): `defaultUnit` of parts. */
export function masterJsonProperties(cls: CatalogClass): Map<string, JsonProperty> {
  return jsonProperties(cls, 'master');
}

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** A value of a declared type, as JSON. */
export function typedValue(v: unknown, type: PropertyType, path: string, fail: Fail): JsonScalar {
  if (v === null) return null;
  switch (type) {
    case 'string':
      if (typeof v !== 'string') fail(path, 'must be a string');
      return v as string;
    case 'long':
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) fail(path, 'must be an integer');
      return v as number;
    case 'double':
      if (typeof v !== 'number' || !Number.isFinite(v)) fail(path, 'must be a number');
      return v as number;
    case 'boolean':
      if (typeof v !== 'boolean') fail(path, 'must be true or false');
      return v as boolean;
    case 'timestamp':
      if (typeof v !== 'string' || !ISO.test(v) || Number.isNaN(Date.parse(v)))
        fail(path, 'must be an ISO-8601 date or timestamp');
      return v as string;
  }
}
