import request from 'supertest';
import { objectsFixture, type ObjectsFixture } from '../objects/objects-fixtures.js';
import { USERS } from '../helpers/test-app.js';
import { bearer, createToken, dropUsers, freshUser } from './tokens-fixtures.js';

const NAME = `TS${process.pid}`;
const READ_ONLY = 'this personal access token has the read scope only: this operation writes';
const NOT_ADMIN = 'this administration operation needs an administrator';

/**
 * Scopes on every service: a `read` token reads (and runs queries and reports) but every write is
 * refused; a `write` token writes within its user's container rights but is no administrator; only
 * an `admin` token of an administrator administers.
 */
describe('personal access token scopes', () => {
  let f: ObjectsFixture;
  const tokens: Record<'aliceRead' | 'aliceWrite' | 'adminRead' | 'adminWrite' | 'adminAdmin', string> = {
    aliceRead: '',
    aliceWrite: '',
    adminRead: '',
    adminWrite: '',
    adminAdmin: '',
  };
  let doc: string;
  let secretDoc: string;
  let admin: [string, string];

  beforeAll(async () => {
    f = await objectsFixture(NAME);
    admin = await freshUser(f.db, NAME.toLowerCase(), true);
    doc = (await f.create({ type: 'wt.doc.WTDocument', number: 'generate', name: 'scoped' })).number;
    secretDoc = (
      await f.create({ type: 'wt.doc.WTDocument', container: f.secret.name, number: `${NAME}-S1`, name: 's' }, 'carol')
    ).number;
    const t = f.t.http;
    const suffix = `${NAME} scopes`;
    tokens.aliceRead = (await createToken(t, USERS.alice, { name: `${suffix} r`, scopes: ['read'] })).token;
    tokens.aliceWrite = (await createToken(t, USERS.alice, { name: `${suffix} w`, scopes: ['write'] })).token;
    tokens.adminRead = (await createToken(t, admin, { name: 'r', scopes: ['read'] })).token;
    tokens.adminWrite = (await createToken(t, admin, { name: 'w', scopes: ['write'] })).token;
    tokens.adminAdmin = (await createToken(t, admin, { name: 'a', scopes: ['admin'] })).token;
  });
  afterAll(async () => {
    await f.db.query('DELETE FROM access_tokens WHERE name LIKE $1', [`${NAME} scopes%`]);
    await dropUsers(f.db, NAME.toLowerCase());
    await f.close();
  });

  const as = (token: keyof typeof tokens) => ({
    get: (path: string) => request(f.t.http).get(path).set('Authorization', bearer(tokens[token])),
    post: (path: string, body?: object) =>
      request(f.t.http).post(path).set('Authorization', bearer(tokens[token])).send(body),
    put: (path: string) => request(f.t.http).put(path).set('Authorization', bearer(tokens[token])),
    patch: (path: string, body?: object) =>
      request(f.t.http).patch(path).set('Authorization', bearer(tokens[token])).send(body),
    delete: (path: string) => request(f.t.http).delete(path).set('Authorization', bearer(tokens[token])),
  });
  const newDoc = (name: string) => ({ type: 'wt.doc.WTDocument', container: f.main.name, number: 'generate', name });
  const b64 = (s: string) => Buffer.from(s).toString('base64');

  it('lets a read token read on every service', async () => {
    const r = as('aliceRead');
    const object = await r.get(`/objects/${doc}`);
    expect([object.status, object.body.number]).toEqual([200, doc]);
    const files = await r.get(`/files/${doc}`);
    expect(files.status).toBe(200);
    const query = await r.post('/query/1.0/query', { q: { number: doc } });
    expect([query.status, query.body.total]).toEqual([200, 1]);
    const report = await r.post('/reports/Documents%20by%20number').type('form').send({ number: doc });
    expect(report.status).toBe(200);
    const versions = await Promise.all(['/numbers/version', '/reports/version', '/files/version'].map((p) => r.get(p)));
    expect(versions.map((v) => v.status)).toEqual([200, 200, 200]);
  });

  it.each<[string, (r: ReturnType<typeof as>) => request.Test]>([
    ['objects: create', (r) => r.post('/objects', newDoc('refused'))],
    ['objects: new iteration', (r) => r.post(`/objects/${doc}/iterations`, {})],
    ['objects: delete', (r) => r.delete(`/objects/${doc}`)],
    ['files: upload', (r) => r.post(`/files/${doc}/refused.txt`, { data: b64('x') })],
    ['files: delete', (r) => r.delete(`/files/${doc}/refused.txt`)],
    [
      'numbers: generate',
      (r) => r.post(`/numbers/generate/wt.doc.WTDocument?container-name=${encodeURIComponent(f.main.name)}`),
    ],
    ['cad: number used links', (r) => r.post(`/numbers/used/${doc}`)],
    [
      'reports: save a template',
      (r) => r.put('/reports/refused?container=Drive%20Unit').set('Content-Type', 'text/xml').send('<qml/>'),
    ],
    ['reports: delete a template', (r) => r.delete('/reports/Documents%20by%20number')],
    ['me: create a token', (r) => r.post('/me/tokens', { name: 'x', scopes: ['read'], expiresInDays: 1 })],
    ['me: revoke a token', (r) => r.delete('/me/tokens/1')],
    [
      'admin: create a workspace',
      (r) => r.post('/admin/workspaces', { name: 'x', container: f.main.name, owner: 'alice' }),
    ],
  ])('refuses a read token on %s (403)', async (_name, call) => {
    const res = await call(as('aliceRead'));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden', message: READ_ONLY });
  });

  it("lets a write token write within its user's rights", async () => {
    const w = as('aliceWrite');
    const created = await w.post('/objects', newDoc('by write token'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'by write token', version: 'A', iteration: 1 });
    const upload = await w.post(`/files/${created.body.number}/token.txt`, { data: b64('written with a token\n') });
    expect(upload.status).toBe(201);
    expect(upload.body).toMatchObject({ success: true });
    const numbers = await w.post(
      `/numbers/generate/wt.doc.WTDocument?container-name=${encodeURIComponent(f.main.name)}`,
    );
    expect(numbers.status).toBe(200);
    // Not beyond them: alice is no member of the secret container.
    const secret = await w.post('/objects', { ...newDoc('nope'), container: f.secret.name });
    expect([403, 404]).toContain(secret.status);
  });

  it('makes no administrator of a token without the admin scope', async () => {
    for (const token of ['adminRead', 'adminWrite', 'aliceWrite'] as const) {
      const res = await as(token).get('/admin/users');
      expect({ token, status: res.status, message: res.body.message }).toEqual({
        token,
        status: 403,
        message: NOT_ADMIN,
      });
    }
    const container = await as('adminWrite').post('/admin/containers', {
      name: `${NAME} c`,
      class: 'wt.pdmlink.PDMLinkProduct',
    });
    expect([container.status, container.body.message]).toEqual([403, NOT_ADMIN]);
    // An administrator's read token reads only where the user is a member, like any user.
    const hidden = await as('adminRead').get(`/objects/${secretDoc}`);
    expect(hidden.status).toBe(404);
    const seen = await request(f.t.http)
      .get(`/objects/${secretDoc}`)
      .auth(...admin);
    expect(seen.status).toBe(200);
  });

  it("gives an admin token of an administrator the administrator's rights", async () => {
    const users = await as('adminAdmin').get('/admin/users');
    expect(users.status).toBe(200);
    expect(users.body).toHaveProperty('total');
    const secret = await as('adminAdmin').get(`/objects/${secretDoc}`);
    expect([secret.status, secret.body.number]).toEqual([200, secretDoc]);
  });
});
