import { Ajv, type ErrorObject } from 'ajv';
import type { CatalogFile, CatalogProblem } from './catalog-model.js';
import { AUX_NAMES, STORAGE_KINDS } from './storage.js';
import { COMPUTED_KINDS, PROPERTY_TYPES } from './catalog-model.js';
import { TYPE_INFO_COLUMN } from './type-info.js';

/** A Java-style class name (`wt.part.WTPart`) or soft type name (`com.acme.SoftwarePart`). */
export const CLASS_NAME = '^[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)+$';
/** Property paths as templates write them: `iterationInfo.identifier.iterationId`, `master>name`. */
const PATH = '^[A-Za-z_][\\w]*([.>][A-Za-z_][\\w]*)*$';
const NAME = '^[A-Za-z_][\\w.-]{0,99}$';
const COLUMN = '^[a-z][a-z0-9_]*$';

const via = { enum: AUX_NAMES.filter((a) => a !== 'self') };
const about = { type: 'string', maxLength: 500 };

const property = {
  oneOf: [
    {
      type: 'object',
      properties: { type: { enum: PROPERTY_TYPES }, column: { type: 'string', pattern: COLUMN }, via, about },
      required: ['type', 'column'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { type: { enum: PROPERTY_TYPES }, json: { type: 'string', pattern: NAME }, via, about },
      required: ['type', 'json'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { computed: { enum: COMPUTED_KINDS }, about },
      required: ['computed'],
      additionalProperties: false,
    },
  ],
};

const target = { type: 'string', pattern: CLASS_NAME };
const reference = {
  oneOf: [
    {
      type: 'object',
      properties: { target, column: { type: 'string', pattern: COLUMN }, via, about },
      required: ['target', 'column'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { target, json: { type: 'string', pattern: NAME }, about },
      required: ['target', 'json'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { target, oidJson: { type: 'string', pattern: NAME }, about },
      required: ['target', 'oidJson'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        target,
        oidColumns: {
          type: 'object',
          properties: { class: { type: 'string', pattern: COLUMN }, id: { type: 'string', pattern: COLUMN } },
          required: ['class', 'id'],
          additionalProperties: false,
        },
        about,
      },
      required: ['target', 'oidColumns'],
      additionalProperties: false,
    },
  ],
};

const interfaceList = { type: 'array', items: target, maxItems: 50 };
const declaredProperty = {
  type: 'object',
  properties: { type: { enum: PROPERTY_TYPES }, about },
  required: ['type'],
  additionalProperties: false,
};

const pathMap = (value: object) => ({
  type: 'object',
  propertyNames: { pattern: PATH, maxLength: 200 },
  additionalProperties: value,
});

const roles = {
  type: 'object',
  properties: { a: target, b: target },
  required: ['a', 'b'],
  additionalProperties: false,
};

/**
 * An extension of a standard class: what it adds. The keys of a declaration that would change
 * the class (`storage`, `parent` …) are let through to be refused with a message that says so.
 */
const extension = {
  type: 'object',
  properties: {
    class: { type: 'string', pattern: CLASS_NAME, maxLength: 200 },
    properties: pathMap(property),
    derived: pathMap(property),
    references: pathMap(reference),
    roles,
    name: {},
    parent: {},
    abstract: {},
    storage: {},
    master: {},
    displayName: {},
    about: {},
  },
  required: ['class'],
  additionalProperties: false,
};

/** The JSON Schema of one catalog file (and of the dataset's `types`, which may hold extensions too). */
export const CATALOG_SCHEMA = {
  type: 'object',
  properties: {
    $comment: { type: 'string' },
    classes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', pattern: CLASS_NAME, maxLength: 200 },
          parent: { type: 'string', pattern: CLASS_NAME },
          interfaces: interfaceList,
          abstract: { type: 'boolean' },
          storage: { enum: STORAGE_KINDS },
          master: { type: 'string', pattern: CLASS_NAME },
          displayName: { type: 'string', minLength: 1, maxLength: 100 },
          about,
          properties: pathMap(property),
          derived: pathMap(property),
          references: pathMap(reference),
          roles,
          paths: pathMap({ type: 'string', pattern: PATH, maxLength: 200 }),
        },
        required: ['name'],
        additionalProperties: false,
      },
    },
    interfaces: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', pattern: CLASS_NAME, maxLength: 200 },
          extends: interfaceList,
          displayName: { type: 'string', minLength: 1, maxLength: 100 },
          about,
          properties: pathMap(declaredProperty),
          derived: pathMap(declaredProperty),
          references: pathMap({
            type: 'object',
            properties: { target, about },
            required: ['target'],
            additionalProperties: false,
          }),
        },
        required: ['name'],
        additionalProperties: false,
      },
    },
    softTypes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', pattern: CLASS_NAME, maxLength: 200 },
          parent: { type: 'string', pattern: CLASS_NAME },
          displayName: { type: 'string', minLength: 1, maxLength: 100 },
          about,
          attributes: {
            type: 'object',
            propertyNames: { pattern: NAME },
            additionalProperties: {
              type: 'object',
              properties: {
                type: { enum: PROPERTY_TYPES },
                about,
                typeInfoColumn: { type: 'string', pattern: TYPE_INFO_COLUMN },
                target,
              },
              required: ['type'],
              additionalProperties: false,
            },
          },
        },
        required: ['name', 'parent'],
        additionalProperties: false,
      },
    },
    extensions: { type: 'array', items: extension },
  },
  additionalProperties: false,
} as const;

const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile<CatalogFile>(CATALOG_SCHEMA);

/** Checks one file's shape; every problem, each located by its JSON path. */
export function checkCatalogShape(doc: unknown, where: string): CatalogProblem[] {
  if (validate(doc)) return [];
  return prune(validate.errors ?? []).map((e) => ({
    where: `${where}${e.instancePath.replace(/\//g, '.') || ''}`,
    message: e.message ?? 'invalid',
  }));
}

/** oneOf reports every branch; keep the branch errors that got furthest, and no duplicates. */
function prune(errors: ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  return errors
    .filter((e) => e.keyword !== 'oneOf')
    .filter((e) => {
      const key = `${e.instancePath} ${e.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
