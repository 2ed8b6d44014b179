import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { useTestApp } from '../helpers/use-test-app.js';

const FILE = join(process.cwd(), 'docs', 'openapi.json');

/**
 * docs/openapi.json is the OpenAPI document the service serves at /docs-json, committed so that
 * users can generate clients without running the service. `npm run openapi` rewrites it; this
 * test fails when a change to the API was not written there.
 */
describe('docs/openapi.json', () => {
  const t = useTestApp();

  it('is the document the service serves', async () => {
    const res = await request(t.http).get('/docs-json');
    expect(res.status).toBe(200);
    const served = `${JSON.stringify(res.body, null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI === 'true') writeFileSync(FILE, served);
    expect(readFileSync(FILE, 'utf8')).toBe(served);
  });
});
