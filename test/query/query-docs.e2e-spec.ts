import { readFileSync } from 'node:fs';
import request from 'supertest';
import { USERS } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

const DOC = readFileSync(new URL('../../docs/query.md', import.meta.url), 'utf8');
const EXAMPLES = DOC.slice(DOC.indexOf('## Examples'));

/** The `q` texts of the curl examples (`--data-urlencode 'q=…'`). */
const exampleQs = [...EXAMPLES.matchAll(/--data-urlencode 'q=([^']*)'/g)].map((m) => m[1]);
/** The JSON bodies of the curl examples (`-d '…'`). */
const exampleBodies = [...EXAMPLES.matchAll(/-d '([^']*)'/g)].map((m) => JSON.parse(m[1]) as object);

/** The reply shown in docs/query.md, with its "…" (more items) left out. */
function documentedReply(): { query: object[]; limit: number; items: Record<string, unknown>[] } & Record<
  string,
  unknown
> {
  const block = /## Replies\s+```json\n([\s\S]*?)```/.exec(DOC)![1];
  return JSON.parse(block.replace(/, … \]/, ' ]'));
}

/** docs/query.md against the service: each example runs on the demo data as the docs say. */
describe('docs/query.md', () => {
  const t = useTestApp({ PUBLIC_URL: 'http://localhost:3000' });

  it('quotes the message the service gives for a bad q, numbered from q[0]', async () => {
    const res = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: '{"modified":{"gte":"2026-13-01"}}' })
      .auth(...USERS.alice);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('q[0].modified.gte: "2026-13-01" is not an ISO-8601 timestamp');
    expect(DOC).toContain(`\`${res.body.message}\``);
  });

  it('shows a reply as the service gives it', async () => {
    const doc = documentedReply();
    const res = await request(t.http)
      .get('/query/1.0/query')
      .query({ q: JSON.stringify(doc.query[0]), limit: doc.limit })
      .auth(...USERS.alice);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(doc).sort());
    const { session_id: _s, session: _s2, total: _t, total_count: _t2, _runtime: _r, items, ...rest } = doc;
    expect(res.body).toMatchObject(rest);
    expect(res.body.session).toBe(res.body.session_id);
    expect(res.body.total_count).toBe(res.body.total);
    expect(res.body.total).toBeGreaterThan(res.body.count);
    // modified moves when other tests write files of the demo objects.
    expect(res.body.items[0]).toEqual({ ...items[0], modified: expect.any(String) });
    await request(t.http)
      .delete(`/query/1.0/query/${res.body.session_id}`)
      .auth(...USERS.alice);
  });

  it('has curl examples whose q each find demo objects for alice', async () => {
    expect(exampleQs.length).toBeGreaterThanOrEqual(3);
    expect(exampleBodies).toHaveLength(1);
    for (const q of exampleQs) {
      const res = await request(t.http)
        .get('/query/1.0/query')
        .query({ q })
        .auth(...USERS.alice);
      expect({ q, status: res.status }).toEqual({ q, status: 200 });
      expect({ q, found: res.body.total > 0 }).toEqual({ q, found: true });
    }
    const posted = await request(t.http)
      .post('/query/1.0/query')
      .auth(...USERS.alice)
      .send(exampleBodies[0]);
    expect(posted.status).toBe(200);
    expect(posted.body.total).toBeGreaterThan(0);
  });

  it('pages the first example as its comments say: a session over three documents, two per page', async () => {
    const q = exampleQs[0];
    const open = await request(t.http)
      .get('/query/1.0/query')
      .query({ q, limit: 2 })
      .auth(...USERS.alice);
    expect(open.body).toMatchObject({ total: 3, count: 2 });
    const id = open.body.session_id as number;
    expect(id).toBeGreaterThan(0);
    const last = await request(t.http)
      .get(`/query/1.0/query/${id}`)
      .query({ page: 1, limit: 2, close: 1 })
      .auth(...USERS.alice);
    expect(last.body).toMatchObject({ session_id: id, total: 3, count: 1 });
    const again = await request(t.http)
      .delete(`/query/1.0/query/${id}`)
      .auth(...USERS.alice);
    expect(again.status).toBe(410);
  });
});
