import { qJsonSchema } from './q/q-json-schema.js';
import { versionRecord } from '../common/version.js';
import { OPEN_BUSY } from './query.repository.js';

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

const pagingParams = [
  intParam('page', 0, 'zero-based page number; the page starts at start + page × limit'),
  intParam('start', 0, 'start offset'),
  intParam('limit', 25, 'page size (at most QUERY_MAX_LIMIT, default 1000)', 1),
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
      page: { type: 'integer', minimum: 0, default: 0 },
      start: { type: 'integer', minimum: 0, default: 0 },
      limit: { type: 'integer', minimum: 1, default: 25 },
    },
    required: ['q'],
    additionalProperties: false,
  };
  const qParam = {
    name: 'q',
    in: 'query',
    required: true,
    description: 'a q object as JSON; repeat the parameter to OR several',
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
        get: { ...open, operationId: 'openQuery', parameters: [qParam, ...pagingParams] },
        post: {
          ...open,
          operationId: 'openQueryPost',
          parameters: [{ ...qParam, required: false }, ...pagingParams],
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
            session_id: { type: 'integer', description: '0: this reply holds every match, no session kept' },
            query: { type: 'array', items: { $ref: '#/components/schemas/q' } },
            total: { type: 'integer' },
            page: { type: 'integer' },
            start: { type: 'integer' },
            limit: { type: 'integer' },
            count: { type: 'integer' },
            items: { type: 'array', items: { $ref: '#/components/schemas/QueryItem' } },
            _runtime: { type: 'number', description: 'elapsed seconds' },
          },
          required: ['session_id', 'query', 'total', 'page', 'start', 'limit', 'count', 'items', '_runtime'],
        },
        CloseResponse: {
          type: 'object',
          properties: { success: { type: 'boolean', const: true }, session_id: { type: 'integer' } },
          required: ['success', 'session_id'],
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
