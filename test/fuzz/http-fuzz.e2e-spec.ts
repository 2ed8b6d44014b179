import fc from 'fast-check';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { demoQml } from '../reports/report-fixtures.js';

/** Whatever came in, the answer is not a 5xx, and an error is the envelope. */
function expectCleanAnswer(res: request.Response, allowed: number[]): void {
  if (!allowed.includes(res.status)) throw new Error(`unexpected ${res.status}: ${res.text.slice(0, 300)}`);
  if (res.status >= 400) {
    // A QML template with several problems lists them all (each with its element path).
    const problems = 'problems' in res.body ? { problems: expect.any(Array) } : {};
    expect(res.body).toEqual({
      statusCode: res.status,
      error: expect.any(String),
      message: expect.any(String),
      requestId: expect.any(String),
      ...problems,
    });
    for (const p of (res.body as { problems?: unknown[] }).problems ?? []) {
      expect(p).toEqual({ path: expect.any(String), message: expect.any(String) });
    }
  }
}

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', '0', '-1', '1e3', '0x10', '9007199254740993', "x' OR '1'='1", '%', '../..', '\u0000', '😀'),
);

describe('HTTP endpoints under random input', () => {
  const t = useTestApp({ AUTH_FAILURE_LIMIT: '1000000' });

  it('POST /reports answers mutated QML with 200 or a 4xx', async () => {
    const docs = ['Documents by number', 'Part structure', 'Files per state', 'My recent work'].map(demoQml);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...docs),
        fc.nat(),
        fc.nat({ max: 30 }),
        fc.string({ maxLength: 12 }),
        async (doc, at, len, insert) => {
          const i = at % doc.length;
          const body = doc.slice(0, i) + insert + doc.slice(i + len);
          const res = await request(t.http)
            .post('/reports')
            .auth(...USERS.alice)
            .set('Content-Type', 'text/xml')
            .send(body);
          expectCleanAnswer(res, [200, 400]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('the query service answers random q and paging parameters with 200 or a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.json({ maxDepth: 2 }), text),
        fc.record({ page: text, start: text, limit: text }, { requiredKeys: [] }),
        async (q, paging) => {
          const res = await request(t.http)
            .get('/query/1.0/query')
            .auth(...USERS.bob)
            .query({ q, ...paging });
          expectCleanAnswer(res, [200, 400, 429]);
          if (res.status === 200 && res.body.session_id) {
            await request(t.http)
              .delete(`/query/1.0/query/${res.body.session_id}`)
              .auth(...USERS.bob);
          }
        },
      ),
      { numRuns: 150 },
    );
    await fc.assert(
      fc.asyncProperty(text, text, async (id, close) => {
        const res = await request(t.http)
          .get(`/query/1.0/query/${encodeURIComponent(id)}`)
          .auth(...USERS.bob)
          .query({ close });
        expectCleanAnswer(res, [400, 404, 410]);
      }),
      { numRuns: 100 },
    );
  });

  it('the number service answers random classes and parameters with a 4xx (bob may not generate)', async () => {
    const param = fc.constantFrom('container-ref', 'container-name', 'workspace-name', 'workspace-ref', 'count', 'x');
    await fc.assert(
      fc.asyncProperty(text, fc.dictionary(param, text, { maxKeys: 3 }), async (cls, params) => {
        const res = await request(t.http)
          .post(`/numbers/generate/${encodeURIComponent(cls || 'x')}`)
          .auth(...USERS.bob)
          .query(params);
        expectCleanAnswer(res, [400, 403, 404]);
      }),
      { numRuns: 150 },
    );
  });

  it('the file service answers random objects, names and roles with 200 or a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(text, fc.constantFrom('0000000001', 'OR:wt.doc.WTDocument:1', 'OR:x:1')),
        text,
        text,
        async (object, name, role) => {
          const list = await request(t.http)
            .get(`/files/${encodeURIComponent(object || 'x')}`)
            .auth(...USERS.bob)
            .query({ role });
          expectCleanAnswer(list, [200, 400, 404]);
          const file = await request(t.http)
            .get(`/files/${encodeURIComponent(object || 'x')}/${encodeURIComponent(name || 'x')}`)
            .auth(...USERS.bob);
          expectCleanAnswer(file, [200, 400, 404]);
          const upload = await request(t.http)
            .post(`/files/${encodeURIComponent(object || 'x')}/${encodeURIComponent(name || 'x')}`)
            .auth(...USERS.bob)
            .send({ data: name, role });
          expectCleanAnswer(upload, [400, 403, 404, 409]);
        },
      ),
      { numRuns: 100 },
    );
  });
});
