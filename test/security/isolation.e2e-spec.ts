import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { b64, importFilesFixture, oidOf, removeFilesFixture } from '../files/files-fixtures.js';
import { docQuery, NUMBER } from '../reports/report-fixtures.js';
import { expectError, fingerprint, type Creds } from './security-helpers.js';

const PREFIX = 'SECI';
const CONTAINER = `${PREFIX} Files`;
const TEMPLATE = 'Security isolation probe';

/** An error body with the request id dropped and the caller's identifier replaced, for comparing. */
const shape = (res: request.Response, id: string) => ({
  status: res.status,
  headers: { 'content-type': res.headers['content-type'], 'www-authenticate': res.headers['www-authenticate'] },
  body: { ...res.body, requestId: 'x', message: String(res.body.message).split(id).join('<id>') },
});

describe('isolation between users and containers', () => {
  let db: pg.Pool;
  let before: Record<string, string>;
  let docOid: string;

  const t = useTestApp({ AUTH_FAILURE_LIMIT: '1000000' });
  beforeAll(async () => {
    db = testPool();
    await importFilesFixture(PREFIX);
    docOid = await oidOf(db, 'wt.doc.WTDocument', `${PREFIX}-1`);
    const stored = await request(t.http)
      .put(`/reports/${encodeURIComponent(TEMPLATE)}`)
      .query({ container: CONTAINER })
      .auth(...USERS.admin)
      .set('Content-Type', 'text/xml')
      .send(docQuery(NUMBER));
    expect(stored.status).toBe(201);
    before = await fingerprint(db);
  });
  afterAll(async () => {
    await db.query('DELETE FROM report_templates WHERE name = $1', [TEMPLATE]);
    await removeFilesFixture(db, PREFIX);
    await db.end();
  });
  afterEach(async () => {
    expect(await fingerprint(db)).toEqual(before);
  });

  describe('query sessions', () => {
    let session: number;
    beforeAll(async () => {
      const res = await request(t.http)
        .get('/query/1.0/query')
        .query({ q: '{"type":"wt.enterprise.RevisionControlled"}', limit: '1' })
        .auth(...USERS.alice);
      expect(res.status).toBe(200);
      session = res.body.session_id as number;
      expect(session).toBeGreaterThan(0);
      before = await fingerprint(db);
    });
    afterAll(async () => {
      const res = await request(t.http)
        .delete(`/query/1.0/query/${session}`)
        .auth(...USERS.alice);
      expect(res.status).toBe(200);
      before = await fingerprint(db);
    });

    it.each<[string, Creds]>([
      ['bob', USERS.bob],
      ['carol', USERS.carol],
      ['admin', USERS.admin],
    ])("answers %s alice's session exactly like an unknown one, and leaves it open", async (_n, user) => {
      const unknown = String(session + 1_000_000);
      for (const [method, suffix] of [
        ['get', ''],
        ['get', '?page=1&limit=1'],
        ['get', '?close=1'],
        ['delete', ''],
      ] as const) {
        const api = request(t.http);
        const theirs = await api[method](`/query/1.0/query/${session}${suffix}`).auth(...user);
        const none = await api[method](`/query/1.0/query/${unknown}${suffix}`).auth(...user);
        expectError(theirs, 404);
        expect(shape(theirs, String(session))).toEqual(shape(none, unknown));
      }
      const mine = await request(t.http)
        .get(`/query/1.0/query/${session}?page=1&limit=1`)
        .auth(...USERS.alice);
      expect(mine.status).toBe(200);
      expect(mine.body).toMatchObject({ session_id: session, page: 1, count: 1 });
    });
  });

  describe('files', () => {
    const doc = `${PREFIX}-1`;
    const calls = (base: string) =>
      [
        [
          'list',
          (u: readonly [string, string]) =>
            request(t.http)
              .get(base)
              .auth(...u),
        ],
        [
          'download',
          (u: readonly [string, string]) =>
            request(t.http)
              .get(`${base}/main.txt`)
              .auth(...u),
        ],
        [
          'download an unknown file',
          (u: readonly [string, string]) =>
            request(t.http)
              .get(`${base}/none.txt`)
              .auth(...u),
        ],
        [
          'upload JSON',
          (u: readonly [string, string]) =>
            request(t.http)
              .post(`${base}/main.txt`)
              .auth(...u)
              .send({ data: b64('overwritten') }),
        ],
        [
          'upload raw in a new iteration',
          (u: readonly [string, string]) =>
            request(t.http)
              .post(`${base}/new.txt?iterate=true`)
              .auth(...u)
              .set('Content-Type', 'application/octet-stream')
              .send(Buffer.from('x')),
        ],
        [
          'delete',
          (u: readonly [string, string]) =>
            request(t.http)
              .delete(`${base}/main.txt`)
              .auth(...u),
        ],
      ] as const;

    it.each(calls(`/files/${doc}`).map(([name, call]) => [name, call]))(
      'refuses a reader who tries to %s only when it writes (403), and changes nothing',
      async (name, call) => {
        const res = await call(USERS.bob);
        if (/upload|delete$/.test(name)) {
          expectError(res, 403, expect.stringMatching(/author|manager|read/) as unknown as RegExp);
        } else if (name.includes('unknown')) expectError(res, 404);
        else expect(res.status).toBe(200);
      },
    );

    it.each(calls('').map(([name]) => name))(
      'answers a non-member who tries to %s exactly like an unknown object',
      async (name) => {
        const byName = (base: string) => calls(base).find(([n]) => n === name)![1];
        for (const [real, unknown] of [
          [doc, `${PREFIX}-404`],
          [docOid, 'OR:wt.doc.WTDocument:999999999'],
        ]) {
          const theirs = await byName(`/files/${encodeURIComponent(real)}`)(USERS.carol);
          const none = await byName(`/files/${encodeURIComponent(unknown)}`)(USERS.carol);
          expectError(theirs, 404);
          expect(shape(theirs, real)).toEqual(shape(none, unknown));
          expect(theirs.text).not.toMatch(/main content|main\.txt|notes\.md|SECI Files/);
        }
      },
    );
  });

  describe('reports and numbers', () => {
    it('hides a template of an unreadable container like an unknown one, and lets only managers change it', async () => {
      const path = `/reports/${encodeURIComponent(TEMPLATE)}`;
      const unknown = `/reports/${encodeURIComponent('Security no such probe')}`;
      const api = request(t.http);
      for (const method of ['get', 'post', 'delete'] as const) {
        const theirs = await api[method](path).auth(...USERS.carol);
        const none = await api[method](unknown).auth(...USERS.carol);
        expectError(theirs, 404);
        expect(shape(theirs, TEMPLATE)).toEqual(shape(none, 'Security no such probe'));
      }
      const list = await request(t.http)
        .get('/reports?name=Security*')
        .auth(...USERS.carol);
      expect(list.body).toMatchObject({ count: 0, items: [] });
      for (const user of [USERS.alice, USERS.bob] as Creds[]) {
        const put = await request(t.http)
          .put(path)
          .auth(...user)
          .set('Content-Type', 'text/xml')
          .send(docQuery(NUMBER));
        expectError(
          put,
          403,
          `only managers of container "${CONTAINER}" and administrators may change its report templates`,
        );
        expectError(
          await request(t.http)
            .delete(path)
            .auth(...user),
          403,
        );
      }
    });

    it('never returns rows of unreadable containers, even with bypassAccessControl', async () => {
      const inline = docQuery(NUMBER, '', '').replace('<qml>', '<qml bypassAccessControl="true">');
      const res = await request(t.http)
        .post('/reports')
        .auth(...USERS.carol)
        .set('Content-Type', 'text/xml')
        .send(inline);
      expect(res.status).toBe(200);
      expect(res.body.items.flat()).not.toContain(`${PREFIX}-1`);
      const q = await request(t.http)
        .get('/query/1.0/query')
        .query({ q: JSON.stringify({ container: CONTAINER }) })
        .auth(...USERS.carol);
      expect(q.body).toMatchObject({ session_id: 0, total: 0, items: [] });
    });

    it.each<[string, Creds, string, number]>([
      ['bob in a container he cannot read', USERS.bob, 'Secret Project', 404],
      ['bob as a reader', USERS.bob, 'Drive Unit', 403],
      ['alice in a container she cannot read', USERS.alice, 'Secret Project', 404],
    ])('refuses number generation for %s without moving a counter', async (_n, user, container, status) => {
      const res = await request(t.http)
        .post('/numbers/generate/wt.doc.WTDocument')
        .query({ 'container-name': container })
        .auth(...user);
      expectError(res, status);
      if (status === 404) {
        const none = await request(t.http)
          .post('/numbers/generate/wt.doc.WTDocument')
          .query({ 'container-name': 'No Such Container' })
          .auth(...user);
        expect(shape(res, container)).toEqual(shape(none, 'No Such Container'));
      }
    });
  });
});
