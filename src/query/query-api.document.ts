import { qJsonSchema } from './q/q-json-schema.js';
import { versionRecord } from '../common/version.js';
import { OPEN_BUSY } from './query.repository.js';
import { ASSOCIATION_NAMES } from './associations/association-names.js';

const errorRef = { $ref: '#/components/schemas/Error' };

function errors(...codes: number[]): Record<string, object> {
  const text: Record<number, string> = {
    400: 'bad parameter or q (the message names it)',
    401: 'missing or invalid credentials',
    404: 'no such session of the caller',
    410: 'the session is closed or has expired',
    429: 'too many open sessions (or failed sign-ins)',
    503: `${OPEN_BUSY}: the open waited DB_LOCK_TIMEOUT_MS for an earlier open of the same user and kept nothing (Retry-After: 1); or the database cannot be reached (Retry-After: 5)`,
  };
  return Object.fromEntries(
    codes.map((c) => [String(c), { description: text[c], content: { 'application/json': { schema: errorRef } } }]),
  );
}

const intParam = (name: string, def: number, description: string, minimum = 0) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'integer', minimum, default: def },
});

const listParam = (name: string, description: string, items: object = { type: 'string' }) => ({
  name,
  in: 'query',
  required: false,
  description,
  style: 'form',
  explode: true,
  schema: { type: 'array', items },
});

const ignoredParam = (name: string, what: string) => ({
  name,
  in: 'query',
  required: false,
  description: `${what}: accepted and ignored, so that ExtJS stores work unchanged`,
  schema: { type: 'string' },
});

const pagingParams = [
  intParam(
    'page',
    0,
    'zero-based page number; the page starts at start + page × limit (at start when start is page × limit, as ExtJS sends them)',
  ),
  intParam('start', 0, 'start offset'),
  intParam('limit', 25, 'page size (at most QUERY_MAX_LIMIT, default 1000)', 1),
];

const extJsParams = [
  ignoredParam('_dc', "ExtJS's cache buster"),
  ignoredParam('sort', "ExtJS's remote sort (the order is q's sort)"),
  ignoredParam('dir', "ExtJS's sort direction"),
  ignoredParam('filter', "ExtJS's remote filter"),
  ignoredParam('group', "ExtJS's remote grouping"),
];

const associationNames = { type: 'string', enum: [...ASSOCIATION_NAMES] };

const shapeParams = [
  listParam('fields', 'properties of each item by catalog name (CADName, state, location …, attributes.<name>)'),
  listParam('field', "the original gateway's name of fields"),
  listParam('associations', 'arrays added to each item', associationNames),
  listParam('assoc', "the original gateway's name of associations", associationNames),
  intParam('pos', 0, "sent by the original gateway's mobile client: accepted and ignored"),
];

const sessionParam = {
  name: 'session_id',
  in: 'path',
  required: true,
  description: 'a session id from open; 0 is not a session',
  schema: { type: 'integer', minimum: 1 },
};

const pageReply = {
  '200': {
    description: 'a page',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/QueryPage' } } },
  },
};

/** GET /query/1.0/api.json: the OpenAPI 3.1 description of the query service, with the q schema. */
export function queryApiDocument(serverUrl: string): Record<string, unknown> {
  const openBody = {
    type: 'object',
    properties: {
      q: {
        anyOf: [
          { $ref: '#/components/schemas/q' },
          { type: 'array', items: { $ref: '#/components/schemas/q' }, minItems: 1 },
          { type: 'string', description: 'q as JSON text' },
          { type: 'array', items: { type: 'string' } },
        ],
      },
      qq: {
        description: "the original gateway's name of q: an array of q objects, OR-ed",
        type: 'array',
        items: { $ref: '#/components/schemas/q' },
      },
      page: { type: 'integer', minimum: 0, default: 0 },
      start: { type: 'integer', minimum: 0, default: 0 },
      limit: { type: 'integer', minimum: 1, default: 25 },
      fields: { type: 'array', items: { type: 'string' } },
      field: { type: 'array', items: { type: 'string' } },
      associations: { type: 'array', items: associationNames },
      assoc: { type: 'array', items: associationNames },
      pos: { type: 'integer', minimum: 0, description: 'accepted and ignored' },
    },
    description: 'q (or qq) is required, in the body or in the URL',
    additionalProperties: false,
  };
  const qParam = {
    name: 'q',
    in: 'query',
    required: true,
    description:
      "a q object as JSON (or with single-quoted keys and strings, and the original gateway's keys, " +
      'as docs/query.md says); repeat the parameter to OR several',
    style: 'form',
    explode: true,
    schema: { type: 'array', items: { type: 'string', contentMediaType: 'application/json' } },
  };
  const open = {
    tags: ['query'],
    summary: 'Open a paged query session and return its first page',
    description:
      'Every match the caller may read is snapshotted in order; pages of the session never change. ' +
      'When the reply holds every match, session_id is 0 and no session is kept.',
    responses: { ...pageReply, ...errors(400, 401, 429, 503) },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'PDM query service',
      version: '1.0',
      description: `Paged query sessions over business objects (service version ${versionRecord().version}).`,
    },
    servers: [{ url: serverUrl }],
    security: [{ basic: [] }],
    paths: {
      '/1.0/query': {
        get: {
          ...open,
          operationId: 'openQuery',
          parameters: [qParam, ...pagingParams, ...shapeParams, ...extJsParams],
        },
        post: {
          ...open,
          operationId: 'openQueryPost',
          parameters: [{ ...qParam, required: false }, ...pagingParams, ...shapeParams, ...extJsParams],
          requestBody: {
            required: false,
            content: {
              'application/json': { schema: openBody },
              'application/x-www-form-urlencoded': {
                schema: { ...openBody, properties: { ...openBody.properties, q: qParam.schema } },
              },
            },
          },
        },
      },
      '/1.0/query/{session_id}': {
        get: {
          tags: ['query'],
          operationId: 'fetchPage',
          summary: 'Fetch a page of an open session',
          parameters: [
            sessionParam,
            ...pagingParams,
            {
              name: 'close',
              in: 'query',
              required: false,
              description: '1 closes the session after answering',
              schema: { type: 'integer', enum: [0, 1], default: 0 },
            },
            ...extJsParams,
          ],
          responses: { ...pageReply, ...errors(400, 401, 404, 410) },
        },
        delete: {
          tags: ['query'],
          operationId: 'closeSession',
          summary: 'Close a session',
          parameters: [sessionParam],
          responses: {
            '200': {
              description: 'closed',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/CloseResponse' } } },
            },
            ...errors(400, 401, 404, 410),
          },
        },
      },
      '/1.0/api.json': {
        get: {
          tags: ['query'],
          operationId: 'apiDescription',
          summary: 'This document',
          responses: { '200': { description: 'OpenAPI document', content: { 'application/json': {} } } },
        },
      },
      '/version': {
        get: {
          tags: ['query'],
          operationId: 'version',
          summary: 'Version record',
          responses: {
            '200': {
              description: 'version record',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { version: { type: 'string' }, build: { type: 'integer' }, date: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: { basic: { type: 'http', scheme: 'basic' } },
      schemas: {
        q: qJsonSchema(),
        QueryItem: {
          type: 'object',
          properties: {
            oid: { type: 'string', example: 'OR:wt.doc.WTDocument:1001' },
            type: { type: 'string' },
            subtype: { type: ['string', 'null'] },
            number: { type: 'string' },
            name: { type: 'string' },
            version: { type: 'string' },
            iteration: { type: 'integer' },
            state: { type: 'string' },
            latest: { type: 'boolean' },
            container: {
              type: 'object',
              properties: { oid: { type: 'string' }, name: { type: 'string' } },
              required: ['oid', 'name'],
            },
            createdBy: { type: 'string' },
            created: { type: 'string', format: 'date-time' },
            modified: { type: 'string', format: 'date-time' },
            url: { type: 'string', format: 'uri', description: "the object's file list in the file service" },
          },
        },
        QueryPage: {
          type: 'object',
          properties: {
            success: { type: 'boolean', const: true },
            session_id: { type: 'integer', description: '0: this reply holds every match, no session kept' },
            session: { type: 'integer', description: "the same as session_id (the original gateway's name)" },
            query: { type: 'array', items: { $ref: '#/components/schemas/q' } },
            total: { type: 'integer' },
            total_count: { type: 'integer', description: "the same as total (the original gateway's name)" },
            page: { type: 'integer' },
            start: { type: 'integer' },
            limit: { type: 'integer' },
            count: { type: 'integer' },
            items: {
              type: 'array',
              description:
                'without fields: QueryItem; with fields: oid and the fields asked for (null where the class has none); ' +
                'each association asked for adds an array',
              items: {
                anyOf: [
                  { $ref: '#/components/schemas/QueryItem' },
                  { type: 'object', properties: { oid: { type: 'string' } }, required: ['oid'] },
                ],
              },
            },
            _runtime: { type: 'number', description: 'elapsed seconds' },
          },
          required: [
            'success',
            'session_id',
            'session',
            'query',
            'total',
            'total_count',
            'page',
            'start',
            'limit',
            'count',
            'items',
            '_runtime',
          ],
        },
        CloseResponse: {
          type: 'object',
          properties: {
            success: { type: 'boolean', const: true },
            session_id: { type: 'integer' },
            session: { type: 'integer', description: 'the same as session_id' },
          },
          required: ['success', 'session_id', 'session'],
        },
        Error: {
          type: 'object',
          properties: {
            statusCode: { type: 'integer' },
            error: { type: 'string' },
            message: { type: 'string' },
            requestId: { type: 'string' },
          },
          required: ['statusCode', 'error', 'message', 'requestId'],
        },
      },
    },
  };
}
