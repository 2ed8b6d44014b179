import type { ValidateFunction } from 'ajv/dist/2020.js';
import { fill, MESSAGE, pathText, schemaAjv, schemaProblem } from '../common/schema-problem.js';
import { BUSINESS_CLASSES, CONTAINER_CLASSES, OidClass } from '../catalog/oid.js';
import { CAD_SUBTYPES } from '../catalog/standard-classes.js';
import { ATTRIBUTE_VALUE } from './dataset-values.js';

export const MEMBER_ROLES = ['reader', 'author', 'manager'] as const;

/** A value of this dataset did not pass; the message names the record, e.g. `objects[3].name: …`. */
export class DatasetError extends Error {}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A string with something in it besides white space (at most `max` characters). */
const text = (max = 255) => ({
  type: 'string',
  pattern: '\\S',
  maxLength: max,
  [MESSAGE]: { pattern: 'must not be empty', maxLength: `is longer than ${max} characters` },
});
/** A string with something in it besides white space, of any length. */
const anyText = { type: 'string', pattern: '\\S', [MESSAGE]: { pattern: 'must not be empty' } };
/** An optional string: absent or null for none. */
const optionalText = (max = 10_000) => ({
  type: ['string', 'null'],
  maxLength: max,
  [MESSAGE]: { maxLength: `is longer than ${max} characters` },
});
/** An integer; `orNull`: null takes the default. */
const integer = (min: number, max: number, orNull = false) => ({
  type: orNull ? ['integer', 'null'] : 'integer',
  minimum: min,
  maximum: max,
  [MESSAGE]: `must be an integer from ${min} to ${max}`,
});
/** true or false; null takes the default (false). */
const flag = { type: ['boolean', 'null'] };
/** One of `values`; `orNull`: null takes the default. */
const oneOf = (what: string, values: readonly string[], orNull = false) => ({
  type: orNull ? ['string', 'null'] : 'string',
  enum: orNull ? [...values, null] : values,
  [MESSAGE]: { enum: `unknown ${what} "{value}" (expected ${values.join(', ')})` },
});
const timestamp = {
  type: ['string', 'null'],
  format: 'date-time',
  [MESSAGE]: { format: '"{value}" is not an ISO-8601 timestamp with a time zone' },
};
const record = (required: string[], properties: Record<string, object>, more: object = {}) => ({
  type: 'object',
  required,
  additionalProperties: false,
  properties,
  ...more,
});
const list = (items: object) => ({ type: 'array', items });
/** Properties, references: their names and values are the class's, checked against the catalog. */
const section = { type: 'object' };
/** Custom attributes: JSON scalars, or numbers given as references (`{ "ref": … }`, dataset-values.ts). */
const attributes = {
  type: 'object',
  propertyNames: { pattern: '^[A-Za-z_][\\w.-]{0,99}$', [MESSAGE]: '"{key}" is not an attribute name' },
  additionalProperties: { type: ['string', 'number', 'boolean', 'null', 'object'], [MESSAGE]: ATTRIBUTE_VALUE },
};
/** Another record: its number (or name), or `{ "class", "number" }`. */
const reference = {
  anyOf: [anyText, record(['class', 'number'], { class: { type: 'string' }, number: anyText })],
  [MESSAGE]: { anyOf: 'a reference is a number (or name), or { "class": …, "number": … }' },
};

const file = record(
  ['role', 'filename'],
  {
    role: text(64),
    filename: text(),
    mimetype: {
      type: ['string', 'null'],
      maxLength: 255,
      pattern: '^[\\w.+-]+/[\\w.+-]+$',
      [MESSAGE]: { maxLength: 'is longer than 255 characters', pattern: '"{value}" is not a media type' },
    },
    text: { type: 'string', [MESSAGE]: { type: 'must be a string' } },
    base64: { type: 'string', [MESSAGE]: { type: 'must be a string' } },
  },
  {
    anyOf: [{ required: ['text'] }, { required: ['base64'] }],
    dependentSchemas: { text: { not: { required: ['base64'] }, [MESSAGE]: 'give exactly one of "text" or "base64"' } },
    [MESSAGE]: { anyOf: 'give exactly one of "text" or "base64"' },
  },
);

const use = record(['number'], {
  number: text(),
  quantity: { type: ['number', 'null'], exclusiveMinimum: 0, [MESSAGE]: 'must be a positive number' },
  unit: optionalText(32),
  lineNumber: integer(0, 2 ** 31 - 1, true),
});

/** A record of a versioned class (documents, CAD documents, parts, change objects …). */
const versionedObject = record(
  ['class', 'number', 'name', 'container'],
  {
    class: text(),
    softType: { type: ['string', 'null'] },
    references: section,
    properties: section,
    subtype: optionalText(),
    number: text(),
    name: text(1000),
    title: optionalText(1000),
    description: optionalText(),
    container: text(),
    version: {
      type: ['string', 'null'],
      maxLength: 10,
      pattern: '^[A-Z]{1,3}$',
      [MESSAGE]: {
        maxLength: 'is longer than 10 characters',
        pattern: '"{value}" is not a version letter (A, B, … AA)',
      },
    },
    iteration: integer(1, 1_000_000, true),
    // Documents, CAD documents and parts take the states of the configured lifecycle (dataset.ts).
    state: optionalText(64),
    createdBy: optionalText(),
    modifiedBy: optionalText(),
    createdAt: timestamp,
    modifiedAt: timestamp,
    attributes,
    master: record([], { properties: section, attributes, references: section }),
    files: list(file),
    uses: list(use),
  },
  {
    allOf: [
      {
        if: { properties: { class: { const: OidClass.cadDocument } } },
        then: {
          required: ['subtype'],
          properties: {
            subtype: {
              ...oneOf('subtype', CAD_SUBTYPES, true),
              not: { type: 'null' },
              [MESSAGE]: {
                not: `is required for ${OidClass.cadDocument}`,
                enum: `unknown subtype "{value}" (expected ${CAD_SUBTYPES.join(', ')})`,
              },
            },
          },
          [MESSAGE]: { required: `is required for ${OidClass.cadDocument}` },
        },
        else: { properties: { subtype: { type: 'null', [MESSAGE]: `is only for ${OidClass.cadDocument}` } } },
      },
      {
        if: { properties: { class: { not: { const: OidClass.document } } } },
        then: { properties: { title: { type: 'null', [MESSAGE]: `is only for ${OidClass.document}` } } },
      },
    ],
  },
);

/** A record of a plain class (views, workflow processes, organisations …). */
const plainObject = record(
  ['class'],
  {
    class: text(),
    softType: { type: ['string', 'null'] },
    number: optionalText(255),
    name: optionalText(1000),
    state: optionalText(64),
    container: optionalText(),
    createdBy: optionalText(),
    modifiedBy: optionalText(),
    createdAt: timestamp,
    modifiedAt: timestamp,
    properties: section,
    attributes,
    references: section,
  },
  {
    not: { properties: { number: { type: 'null' }, name: { type: 'null' } } },
    [MESSAGE]: { not: 'give a number or a name (references find the object by them)' },
  },
);

/**
 * The JSON Schema of the `pdm-dataset/1` format (docs/dataset-format.md): all a dataset must be
 * whatever the catalog. What depends on the catalog (classes, their properties and references,
 * soft types) and on other records (content roles, unique names) is checked by validateDataset.
 * Each record of `objects` is checked against `$defs/versionedObject` or `$defs/plainObject`
 * once its class is known. `x-message` words the problems (see schema-problem.ts).
 */
export const DATASET_SCHEMA = {
  $id: 'pdm-dataset-1',
  type: 'object',
  required: ['format'],
  additionalProperties: false,
  properties: {
    format: { const: 'pdm-dataset/1', [MESSAGE]: 'must be "pdm-dataset/1"' },
    // Checked against the catalog schema by checkUserTypes, which names the class at fault.
    types: {},
    roles: list({ type: 'string', pattern: '^[A-Z][A-Z0-9_]{0,63}$', [MESSAGE]: 'must be an upper-case role name' }),
    users: list(
      record(['name', 'password'], {
        name: {
          ...text(64),
          allOf: [
            { pattern: '^[^:\\u0000-\\u001f\\u007f]*$', [MESSAGE]: 'must not contain ":" or control characters' },
          ],
        },
        password: text(1024),
        admin: flag,
        fullName: optionalText(255),
        email: optionalText(255),
        disabled: flag,
      }),
    ),
    containers: list(
      record(['name', 'class'], {
        name: text(),
        class: oneOf('container class', CONTAINER_CLASSES),
        description: optionalText(),
        members: {
          type: 'object',
          additionalProperties: {
            enum: MEMBER_ROLES,
            [MESSAGE]: `unknown member role "{value}" (expected ${MEMBER_ROLES.join(', ')})`,
          },
          [MESSAGE]: { type: 'must be an object of user name → role' },
        },
        numbering: list(
          record(['class', 'width'], {
            class: oneOf('class', BUSINESS_CLASSES),
            prefix: optionalText(64),
            suffix: optionalText(64),
            width: integer(1, 18),
            next: integer(0, Number.MAX_SAFE_INTEGER, true),
          }),
        ),
      }),
    ),
    workspaces: list(record(['name', 'container', 'owner'], { name: text(), container: text(), owner: text() })),
    objects: list({ type: 'object', required: ['class'], properties: { class: text() } }),
    links: list(
      record(['class', 'a', 'b'], {
        class: text(),
        softType: { type: ['string', 'null'] },
        a: reference,
        b: reference,
        container: optionalText(),
        properties: section,
        attributes,
      }),
    ),
    reports: list(
      record(['name', 'container', 'qml'], {
        name: text(),
        container: text(),
        description: optionalText(),
        qml: text(1_000_000),
      }),
    ),
  },
  $defs: { versionedObject, plainObject },
  // format is the one required field: missing or wrong, it says the same.
  [MESSAGE]: { required: 'must be "pdm-dataset/1"' },
};

const DEFAULT_MESSAGES: Record<string, string> = {
  required: 'is required',
  additionalProperties: 'unknown field "{key}"',
  string: 'must be a string',
  object: 'must be an object',
  array: 'must be an array',
  boolean: 'must be true or false',
  integer: 'must be an integer',
  number: 'must be a number',
  null: 'must be null',
};

let validators: { dataset: ValidateFunction; versionedObject: ValidateFunction; plainObject: ValidateFunction } | null =
  null;

/**
 * Checks `value` (at `path`: `''` for the dataset, `objects[3]` for a record) against the
 * dataset schema or one of its record definitions; a DatasetError names the value at fault.
 */
export function checkShape(
  value: unknown,
  against: 'dataset' | 'versionedObject' | 'plainObject',
  path: (string | number)[] = [],
): void {
  if (!validators) {
    const ajv = schemaAjv();
    ajv.addFormat('date-time', (s: string) => TIMESTAMP.test(s) && !Number.isNaN(Date.parse(s)));
    const dataset = ajv.compile(DATASET_SCHEMA);
    validators = {
      dataset,
      versionedObject: ajv.getSchema('pdm-dataset-1#/$defs/versionedObject')!,
      plainObject: ajv.getSchema('pdm-dataset-1#/$defs/plainObject')!,
    };
  }
  const validate = validators[against];
  if (validate(value)) return;
  const p = schemaProblem(value, validate.errors!);
  // A missing field is named in the path; an unknown or misnamed one in the message.
  const at = [...path, ...p.path, ...(p.keyword === 'required' && p.key !== undefined ? [p.key] : [])];
  const kind = p.keyword === 'type' ? String(p.params.type).split(',')[0] : p.keyword;
  // A field that must have a value (text, a number) given as null has none.
  const missing = p.keyword === 'type' && p.value === null && !['object', 'array'].includes(kind);
  const template = p.message ?? (missing ? DEFAULT_MESSAGES.required : DEFAULT_MESSAGES[kind]) ?? 'is not valid';
  const message = fill(template, { value: String(p.value), key: p.key ?? '' });
  throw new DatasetError(`${pathText('', at) || '(root)'}: ${message}`);
}
