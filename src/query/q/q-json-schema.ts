import type { ValidateFunction } from 'ajv/dist/2020.js';
import { fill, MESSAGE, pathText, schemaAjv, schemaProblem } from '../../common/schema-problem.js';
import { parseIsoTimestamp } from './q-timestamp.js';
import { FIELDS, MAX_ARRAY, MAX_CRITERIA, QError, SORT_KEYS, typeClasses, type FieldKind } from './q-model.js';

const OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'like', 'ilike', 'in', 'between', 'exists'] as const;
const ATTRIBUTE_PREFIX = 'attributes.';
const MAX_ATTRIBUTE_NAME = 200;
const INT_MAX = 2_147_483_647;

/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses it) of one `q` object: published in the query
 * service's OpenAPI document, and what every `q` is checked with. `x-message` words each problem
 * (see schema-problem.ts): `{value}` is the value at fault, `{key}` a key, `{count}` the elements
 * of an array or the criteria of a `q` object, `{problem}` what is wrong with a timestamp.
 */
export function qJsonSchema(): Record<string, unknown> {
  const classes = [...typeClasses().keys()].filter((name) => !typeClasses().get(name)!.softTypes);
  const scalarOf: Record<FieldKind, object> = {
    text: { type: 'string', [MESSAGE]: '{value} is not a string' },
    int: {
      type: 'integer',
      minimum: -INT_MAX,
      maximum: INT_MAX,
      [MESSAGE]: {
        type: '{value} is not an integer',
        minimum: '{value} is out of range',
        maximum: '{value} is out of range',
      },
    },
    timestamp: {
      type: 'string',
      format: 'date-time',
      [MESSAGE]: { type: '{value} is not an ISO-8601 timestamp', format: '{value} {problem}' },
    },
    // The names of the catalog in force (soft types and user-declared classes too) are checked
    // when the query is parsed (q-parse.ts); the standard classes are listed here as examples.
    type: {
      type: 'string',
      examples: classes,
      [MESSAGE]: { type: '{value} is not a class name' },
    },
    attribute: { type: ['string', 'number', 'boolean'], [MESSAGE]: '{value} is not a string, number or boolean' },
  };
  const valueOf = (kind: FieldKind): object => {
    const scalar = scalarOf[kind];
    // Booleans have no order (attributes may be booleans, but are not compared by order then).
    const ordered = {
      not: { type: 'boolean' },
      allOf: [scalar],
      [MESSAGE]: { not: '{value} cannot be compared by order' },
    };
    const stringy = kind === 'text' || kind === 'attribute';
    const operators: Record<string, object> = {
      eq: { anyOf: [scalar, { type: 'null' }] },
      ne: { anyOf: [scalar, { type: 'null' }] },
      in: {
        type: 'array',
        items: scalar,
        maxItems: MAX_ARRAY,
        [MESSAGE]: { type: '{value} is not an array', maxItems: `more than ${MAX_ARRAY} array elements ({count})` },
      },
    };
    if (kind !== 'type') {
      for (const op of ['lt', 'lte', 'gt', 'gte']) operators[op] = ordered;
      operators.between = {
        type: 'array',
        items: ordered,
        minItems: 2,
        maxItems: 2,
        [MESSAGE]: '{value} is not an array [low, high]',
      };
      operators.exists = { type: 'boolean', [MESSAGE]: '{value} is not a boolean' };
    }
    if (stringy) {
      operators.like = { type: 'string', [MESSAGE]: '{value} is not a string' };
      operators.ilike = { type: 'string', [MESSAGE]: '{value} is not a string' };
    }
    const refused = OPERATORS.filter((op) => !(op in operators));
    const operatorNames = {
      enum: OPERATORS,
      ...(refused.length ? { not: { enum: refused } } : {}),
      [MESSAGE]: {
        enum: `unknown operator (one of ${OPERATORS.join(', ')})`,
        not: kind === 'type' ? 'type takes only eq, ne and in' : 'only string keys take {key}',
      },
    };
    return {
      anyOf: [
        scalar,
        { type: 'null' },
        {
          type: 'array',
          items: {
            not: { type: ['object', 'array'] },
            anyOf: [scalar, { type: 'null' }],
            [MESSAGE]: { not: '{value} is not a plain value' },
          },
          maxItems: MAX_ARRAY,
          [MESSAGE]: { maxItems: `more than ${MAX_ARRAY} array elements ({count})` },
        },
        {
          type: 'object',
          properties: operators,
          propertyNames: operatorNames,
          additionalProperties: false,
          minProperties: 1,
          [MESSAGE]: { minProperties: 'an operator object needs at least one operator' },
        },
      ],
    };
  };
  const properties: Record<string, object> = {};
  for (const [key, kind] of FIELDS) properties[key] = valueOf(kind);
  properties.latest = {
    type: 'boolean',
    default: true,
    description: 'only latest iterations',
    [MESSAGE]: '{value} is not a boolean',
  };
  properties.checkedOut = {
    type: 'boolean',
    description: 'only objects checked out (true) or checked in (false)',
    [MESSAGE]: '{value} is not a boolean',
  };
  const sortKey = {
    type: 'string',
    pattern: `^-?(${SORT_KEYS.join('|')})$`,
    [MESSAGE]: {
      type: '{value} is not a string',
      pattern: `unknown sort key {value} (one of ${SORT_KEYS.join(', ')})`,
    },
  };
  const notSortKeys = '{value} is not a sort key or a non-empty array of sort keys';
  properties.sort = {
    description: 'sort keys, "-" for descending; default number, then the object id',
    anyOf: [
      sortKey,
      {
        type: 'array',
        items: sortKey,
        minItems: 1,
        maxItems: SORT_KEYS.length,
        uniqueItems: true,
        [MESSAGE]: { minItems: notSortKeys, maxItems: notSortKeys, uniqueItems: '{value} gives a sort key twice' },
      },
    ],
    [MESSAGE]: { anyOf: notSortKeys },
  };
  const known = [...FIELDS.keys(), 'latest', 'checkedOut', `${ATTRIBUTE_PREFIX}<name>`, 'sort'].join(', ');
  const criteria = (max: number) => ({ maxProperties: max, [MESSAGE]: `more than ${MAX_CRITERIA} criteria ({count})` });
  return {
    $id: 'q',
    title: 'q object',
    description:
      'Every key is a criterion; all must hold. A string matches exactly unless it contains * (any run) or ? ' +
      '(one character); \\* and \\? are the characters themselves.',
    type: 'object',
    properties,
    patternProperties: { '^attributes\\..+$': valueOf('attribute') },
    additionalProperties: false,
    propertyNames: {
      if: { pattern: '^attributes\\.' },
      then: {
        minLength: ATTRIBUTE_PREFIX.length + 1,
        maxLength: ATTRIBUTE_PREFIX.length + MAX_ATTRIBUTE_NAME,
        [MESSAGE]: `an attribute name of 1 to ${MAX_ATTRIBUTE_NAME} characters is needed`,
      },
      else: { enum: [...FIELDS.keys(), 'latest', 'checkedOut', 'sort'], [MESSAGE]: `unknown key (known: ${known})` },
    },
    // At most MAX_CRITERIA criteria, besides sort.
    if: { required: ['sort'] },
    then: criteria(MAX_CRITERIA + 1),
    else: criteria(MAX_CRITERIA),
    [MESSAGE]: { type: 'not a JSON object: {value}' },
  };
}

let validate: ValidateFunction | null = null;

/** Checks one `q` object against the schema; a QError names the key at fault (`q[0].modified.gte: …`). */
export function checkQ(value: unknown, path: string): void {
  if (!validate) {
    const ajv = schemaAjv();
    ajv.addFormat('date-time', (text: string) => 'iso' in parseIsoTimestamp(text));
    validate = ajv.compile(qJsonSchema());
  }
  if (validate(value)) return;
  const p = schemaProblem(value, validate.errors!);
  const at = pathText(path, p.key === undefined ? p.path : [...p.path, p.key]);
  const v = p.value;
  const message = fill(p.message ?? 'is not valid here', {
    value: show(v),
    key: p.key ?? '',
    count: String(Array.isArray(v) ? v.length : Object.keys(v ?? {}).filter((k) => k !== 'sort').length),
    problem: typeof v === 'string' ? ((parseIsoTimestamp(v) as { problem?: string }).problem ?? '') : '',
  });
  throw new QError(`${at}: ${message}`);
}

/** A value as messages quote it: JSON, cut at 80 characters. */
export function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // Nested too deep to print (JSON.stringify recurses): name the kind of value instead.
    text = Array.isArray(value) ? '[…]' : '{…}';
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
