/** The value types of the dialect: what a property, function or converted value is. */
export type ValueType = 'string' | 'long' | 'double' | 'boolean' | 'timestamp' | 'oid';

/**
 * Java type names of `type` attributes and result headings. `wt.lifecycle.State` and
 * `wt.fc.ObjectIdentifier` are Windchill value types, not classes of the catalog, so they are
 * spelled here rather than in catalog/standard-classes.ts (whose names the standard catalog declares).
 */
const HINTS: Record<string, ValueType> = {
  'java.lang.String': 'string',
  string: 'string',
  'wt.lifecycle.State': 'string',
  'java.lang.Long': 'long',
  'java.lang.Integer': 'long',
  'java.lang.Short': 'long',
  'java.math.BigInteger': 'long',
  long: 'long',
  int: 'long',
  short: 'long',
  'java.lang.Double': 'double',
  'java.lang.Float': 'double',
  'java.lang.Number': 'double',
  'java.math.BigDecimal': 'double',
  double: 'double',
  float: 'double',
  'java.lang.Boolean': 'boolean',
  boolean: 'boolean',
  'java.sql.Timestamp': 'timestamp',
  'java.util.Date': 'timestamp',
  'java.sql.Date': 'timestamp',
};

/**
 * The value type a `type` attribute suggests, or null when it says nothing usable
 * (`java.lang.Object`, a class name). Only a hint: properties keep their own type.
 */
export function typeFromHint(hint: string | undefined): ValueType | null {
  if (!hint) return null;
  return HINTS[hint.trim()] ?? null;
}

/** The Java type name reported in result headings. */
export function javaTypeName(type: ValueType): string {
  switch (type) {
    case 'string':
      return 'java.lang.String';
    case 'long':
      return 'java.lang.Long';
    case 'double':
      return 'java.lang.Double';
    case 'boolean':
      return 'java.lang.Boolean';
    case 'timestamp':
      return 'java.sql.Timestamp';
    case 'oid':
      return 'wt.fc.ObjectIdentifier';
  }
}

export function isNumeric(type: ValueType): boolean {
  return type === 'long' || type === 'double';
}

/** The `type` attribute values that carry a value type, and the type each names. */
export function listTypeHints(): readonly [string, ValueType][] {
  return Object.entries(HINTS);
}
