import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

describe('GET /query/1.0/api.json', () => {
  const t = useTestApp({ PUBLIC_URL: 'https://pdm.example.com', BASE_PATH: '/pdm' });

  it('describes the query operations as OpenAPI with the JSON Schema of a q object', async () => {
    const res = await request(t.http)
      .get('/pdm/query/1.0/api.json')
      .auth(...USERS.bob);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'https://pdm.example.com/pdm/query' }]);
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/1.0/api.json',
      '/1.0/query',
      '/1.0/query/{session_id}',
      '/version',
    ]);
    expect(Object.keys(doc.paths['/1.0/query']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/1.0/query/{session_id}']).sort()).toEqual(['delete', 'get']);
    const params = doc.paths['/1.0/query'].get.parameters.map((p: { name: string }) => p.name);
    const extJs = ['_dc', 'sort', 'dir', 'filter', 'group'];
    expect(params).toEqual([
      'q',
      'page',
      'start',
      'limit',
      'fields',
      'field',
      'associations',
      'assoc',
      'pos',
      ...extJs,
    ]);
    const fetchParams = doc.paths['/1.0/query/{session_id}'].get.parameters.map((p: { name: string }) => p.name);
    expect(fetchParams).toEqual(['session_id', 'page', 'start', 'limit', 'close', ...extJs]);
    expect(doc.paths['/1.0/query'].get.parameters[3].schema).toEqual({ type: 'integer', minimum: 1, default: 25 });
    expect(Object.keys(doc.paths['/1.0/query/{session_id}'].get.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '404',
      '410',
    ]);

    const q = doc.components.schemas.q;
    expect(q.type).toBe('object');
    expect(q.additionalProperties).toBe(false);
    expect(Object.keys(q.properties).sort()).toEqual(
      [
        'type',
        'subtype',
        'number',
        'name',
        'state',
        'version',
        'iteration',
        'container',
        'createdBy',
        'modifiedBy',
        'checkedOutBy',
        'created',
        'modified',
        'latest',
        'checkedOut',
        'sort',
      ].sort(),
    );
    expect(Object.keys(q.patternProperties)).toEqual(['^attributes\\..+$']);
    expect(q.properties.latest).toMatchObject({ type: 'boolean', default: true });
    const numberOps = q.properties.number.anyOf[3].properties;
    expect(Object.keys(numberOps).sort()).toEqual(
      ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'like', 'ilike', 'in', 'between', 'exists'].sort(),
    );
    expect(Object.keys(q.properties.type.anyOf[3].properties).sort()).toEqual(['eq', 'in', 'ne']);
    // The catalog in force is checked when a query is parsed: the schema gives the standard classes as examples.
    expect(q.properties.type.anyOf[0].examples).toContain('wt.enterprise.RevisionControlled');
    expect(doc.components.schemas.QueryPage.required).toEqual([
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
    ]);
    // Every $ref points at a schema the document defines.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(doc.components.schemas[ref]).toBeDefined();
  });

  it('documents the 503 of an open that waited for an earlier open of the same user, here and in Swagger', async () => {
    const busy = 'another query session of the same user is being opened; retry shortly';
    const own = await request(t.http)
      .get('/pdm/query/1.0/api.json')
      .auth(...USERS.bob);
    const swagger = await request(t.http).get('/pdm/docs-json');
    for (const method of ['get', 'post']) {
      expect(own.body.paths['/1.0/query'][method].responses['503'].description).toContain(busy);
      const answer = swagger.body.paths['/pdm/query/1.0/query'][method].responses['503'];
      expect(answer.description).toContain(busy);
      expect(answer.headers['Retry-After']).toBeDefined();
    }
  });

  it('needs credentials', async () => {
    const res = await request(t.http).get('/pdm/query/1.0/api.json');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401 });
  });

  it('documents the query routes and their parameters in Swagger too', async () => {
    const res = await request(t.http).get('/pdm/docs-json');
    expect(res.status).toBe(200);
    const open = res.body.paths['/pdm/query/1.0/query'];
    expect(Object.keys(open).sort()).toEqual(['get', 'post']);
    const extJs = ['_dc', 'dir', 'filter', 'group', 'sort'];
    expect(open.get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      [...extJs, 'assoc', 'associations', 'field', 'fields', 'limit', 'page', 'pos', 'q', 'qq', 'start'].sort(),
    );
    const page = res.body.paths['/pdm/query/1.0/query/{session_id}'];
    expect(Object.keys(page).sort()).toEqual(['delete', 'get']);
    expect(page.get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      [...extJs, 'close', 'limit', 'page', 'session_id', 'start'].sort(),
    );
    expect(res.body.paths['/pdm/query/1.0/api.json'].get).toBeDefined();
  });
});
