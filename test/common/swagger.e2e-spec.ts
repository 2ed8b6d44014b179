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

describe('Swagger', () => {
  const t = useTestApp();

  it('serves the OpenAPI document with every route of the specification, all behind Basic auth', async () => {
    const res = await request(t.http).get('/docs-json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.components.securitySchemes.basic).toEqual({ type: 'http', scheme: 'basic' });
    const routes: string[] = [];
    for (const [path, ops] of Object.entries(
      res.body.paths as Record<string, Record<string, { security?: unknown }>>,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        routes.push(`${method} ${path.replace(/\{[^}]+\}/g, '{}')}`);
        // Only the health probes are public.
        expect(op.security).toEqual(path.startsWith('/health/') ? undefined : [{ basic: [] }]);
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

  it('serves Swagger UI', async () => {
    const res = await request(t.http).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('swagger-ui');
  });
});
