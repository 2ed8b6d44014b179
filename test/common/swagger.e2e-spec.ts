import request from 'supertest';
import { useTestApp } from '../helpers/use-test-app.js';

/** Every route of the interface specification, with path parameters unnamed. */
const SPEC_ROUTES = [
  'get /reports/version',
  'get /reports',
  'post /reports',
  'get /reports/{}',
  'post /reports/{}',
  'get /files/version',
  'get /files/{}',
  'get /files/{}/{}',
  'post /files/{}/{}',
  'delete /files/{}/{}',
  'get /numbers/version',
  'post /numbers/generate/{}',
  'get /query/version',
  'get /query/1.0/api.json',
  'get /query/1.0/query',
  'post /query/1.0/query',
  'get /query/1.0/query/{}',
  'delete /query/1.0/query/{}',
];

interface ResponseDoc {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { example?: unknown }>;
}

describe('Swagger', () => {
  const t = useTestApp();

  it('serves the OpenAPI document with every route of the specification, all behind Basic auth or a token', async () => {
    const res = await request(t.http).get('/docs-json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.components.securitySchemes.basic).toEqual({ type: 'http', scheme: 'basic' });
    expect(res.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const routes: string[] = [];
    for (const [path, ops] of Object.entries(
      res.body.paths as Record<string, Record<string, { security?: unknown }>>,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        routes.push(`${method} ${path.replace(/\{[^}]+\}/g, '{}')}`);
        // Only the health probes are public.
        expect(op.security).toEqual(path.startsWith('/health/') ? undefined : [{ basic: [] }, { bearer: [] }]);
      }
    }
    for (const route of SPEC_ROUTES) expect(routes).toContain(route);
    expect(routes).toEqual(expect.arrayContaining(['get /health/live', 'get /health/ready']));
  });

  it('gives every error response an example with its own status', async () => {
    const res = await request(t.http).get('/docs-json');
    const unauthorized = res.body.paths['/numbers/version'].get.responses['401'];
    expect(unauthorized.content['application/json'].example).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'missing or invalid credentials',
      requestId: expect.any(String),
    });
  });

  it('documents the 502 and 503 of downloads and the 503 with Retry-After of changes waiting for the same object', async () => {
    const res = await request(t.http).get('/docs-json');
    const paths = res.body.paths as Record<string, Record<string, { responses: Record<string, ResponseDoc> }>>;
    const download = paths['/files/{oid_or_number}/{filename}'].get.responses;
    expect(download['502'].description).toContain('does not hold the content');
    expect(download['503'].description).toContain('file store');
    expect(download['503'].headers).toEqual({ 'Retry-After': expect.objectContaining({ schema: expect.anything() }) });
    const changes: [string, string][] = [
      ['/files/{oid_or_number}/{filename}', 'post'],
      ['/files/{oid_or_number}/{filename}', 'delete'],
      ['/objects/{ref}/iterations', 'post'],
      ['/objects/{ref}/revisions', 'post'],
      ['/objects/{ref}/state', 'post'],
      ['/objects/{ref}', 'delete'],
      ['/objects/{ref}', 'patch'],
      ['/objects/{ref}/uses', 'post'],
      ['/objects/{ref}/uses/{link}', 'patch'],
      ['/objects/{ref}/uses/{link}', 'delete'],
      ['/numbers/attributes/{oid_or_number}', 'post'],
      ['/numbers/attributes/{oid_or_number}/{link}', 'post'],
      ['/numbers/attributes/{oid_or_number}/{link}', 'delete'],
      ['/numbers/used/{oid_or_number}', 'post'],
    ];
    for (const [path, method] of changes) {
      const busy = paths[path]?.[method]?.responses['503'];
      expect({ path, method, description: busy?.description }).toEqual({
        path,
        method,
        description: expect.stringContaining('another request is changing the same object; retry shortly'),
      });
      expect(busy.headers?.['Retry-After']).toBeDefined();
      expect(busy.content?.['application/json'].example).toMatchObject({
        statusCode: 503,
        error: 'Service Unavailable',
      });
    }
  });

  it('serves Swagger UI', async () => {
    const res = await request(t.http).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('swagger-ui');
  });
});
