import request from 'supertest';
import { useTestApp } from '../helpers/use-test-app.js';

describe('GET / points to the API documentation', () => {
  describe('without BASE_PATH', () => {
    const t = useTestApp();

    it('redirects to Swagger UI without credentials, with the links in the body', async () => {
      const res = await request(t.http).get('/');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/docs');
      expect(res.body).toEqual({ docs: '/docs', openapi: '/docs-json', health: '/health/ready' });
    });

    it('the place it points to is served', async () => {
      const res = await request(t.http).get('/docs-json');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expect.objectContaining({ openapi: expect.any(String) }));
    });
  });

  describe('with BASE_PATH=/pdm', () => {
    const t = useTestApp({ BASE_PATH: '/pdm' });

    it.each(['/pdm', '/pdm/'])('GET %s redirects under the prefix', async (path) => {
      const res = await request(t.http).get(path);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/pdm/docs');
      expect(res.body).toEqual({ docs: '/pdm/docs', openapi: '/pdm/docs-json', health: '/pdm/health/ready' });
    });
  });
});
