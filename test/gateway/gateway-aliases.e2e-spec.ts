import { Writable } from 'node:stream';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type pg from 'pg';
import { pino } from 'pino';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { AppModule } from '../../src/app.module.js';
import { configureApp } from '../../src/app.setup.js';
import { loadConfig } from '../../src/config/app-config.js';
import { SERVICE_ROUTES } from '../../src/common/service-routes.js';
import { createTestApp, USERS, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { createContainer, type TestContainer } from '../numbers/numbers-fixtures.js';

const GW = '/Windchill/servlet/nexiles/tools';
const DOC = 'wt.doc.WTDocument';
/** The address links are made of (supertest gives every request a port of its own). */
const PUBLIC_URL = 'http://pdm.test';

/** An answer without what differs from call to call. */
function withoutRuntime(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const { _runtime: runtime, ...rest } = body as Record<string, unknown>;
  expect(typeof runtime).toBe('number');
  return rest;
}

/** The envelope of an error answer, but for its request id (checked against the header). */
function envelope(res: request.Response): unknown {
  expect(res.body.requestId).toBe(res.headers['x-request-id']);
  const { requestId: _id, ...rest } = res.body as Record<string, unknown>;
  return rest;
}

describe('the addresses of the original gateway (GATEWAY_BASE_PATH, default)', () => {
  const t = useTestApp({ PUBLIC_URL });
  let pool: pg.Pool;
  let numbers: TestContainer;
  beforeAll(async () => {
    pool = testPool();
    numbers = await createContainer(pool, {
      name: 'gateway-aliases numbers',
      members: { alice: 'author' },
      rules: [{ cls: DOC, prefix: 'GW', width: 6, next: 100 }],
    });
  });
  afterAll(async () => {
    await pool.end();
  });

  const get = (path: string, user: readonly [string, string] = USERS.alice) =>
    request(t.http)
      .get(path)
      .auth(...user);

  it.each(['reports', 'files', 'numbers', 'query'])(
    'answer <gateway>/services/%s/version as the service’s own version route',
    async (s) => {
      const native = await get(`/${s}/version`);
      const alias = await get(`${GW}/services/${s}/version`);
      expect(native.status).toBe(200);
      expect(alias.status).toBe(200);
      expect(alias.headers['content-type']).toBe(native.headers['content-type']);
      expect(alias.body).toEqual(native.body);
      expect(Object.keys(alias.body).sort()).toEqual(['build', 'date', 'version']);
    },
  );

  it('list the files of an object as /files does, with the query string kept', async () => {
    for (const query of ['', '?role=all']) {
      const native = await get(`/files/0000000001${query}`, USERS.bob);
      const alias = await get(`${GW}/services/files/0000000001${query}`, USERS.bob);
      expect(native.status).toBe(200);
      expect(alias.status).toBe(200);
      expect(withoutRuntime(alias.body)).toEqual(withoutRuntime(native.body));
    }
    const secondary = await get(`${GW}/services/files/0000000001`, USERS.bob);
    const all = await get(`${GW}/services/files/0000000001?role=all`, USERS.bob);
    expect([secondary.status, all.status]).toEqual([200, 200]);
    expect(secondary.body.items.map((i: { role: string }) => i.role)).toEqual(['SECONDARY']);
    expect(all.body.count).toBeGreaterThan(secondary.body.count);
  });

  it('generate numbers through <gateway>/services/numbers/generate as /numbers/generate does', async () => {
    const params = `?container-name=${encodeURIComponent(numbers.name)}&count=2`;
    const native = await request(t.http)
      .post(`/numbers/generate/${DOC}${params}`)
      .auth(...USERS.alice);
    const alias = await request(t.http)
      .post(`${GW}/services/numbers/generate/${DOC}${params}`)
      .auth(...USERS.alice);
    const container = { oid: numbers.oid, name: numbers.name };
    expect([native.status, withoutRuntime(native.body)]).toEqual([
      200,
      { count: 2, class_name: DOC, container, items: ['GW000100', 'GW000101'] },
    ]);
    expect([alias.status, withoutRuntime(alias.body)]).toEqual([
      200,
      { count: 2, class_name: DOC, container, items: ['GW000102', 'GW000103'] },
    ]);
  });

  it('open a query through <gateway>/services/query/1.0/query?q=… as /query/1.0/query', async () => {
    const q = JSON.stringify({ type: DOC, number: '0000*' });
    const native = await get('/query/1.0/query').query({ q });
    const alias = await get(`${GW}/services/query/1.0/query`).query({ q });
    expect(native.status).toBe(200);
    expect(native.body.session_id).toBe(0);
    expect(native.body.count).toBeGreaterThan(0);
    expect(alias.status).toBe(200);
    expect(withoutRuntime(alias.body)).toEqual(withoutRuntime(native.body));
  });

  it('open a query with a JSON body through the alias as /query/1.0/query does', async () => {
    const body = { q: { type: DOC, number: '0000*' }, limit: 2 };
    const post = (path: string) =>
      request(t.http)
        .post(path)
        .auth(...USERS.alice)
        .send(body);
    const native = await post('/query/1.0/query');
    const alias = await post(`${GW}/services/query/1.0/query`);
    expect(native.status).toBe(200);
    expect(native.body.count).toBe(2);
    expect(alias.status).toBe(200);
    // Two sessions: the same answer but for their ids.
    expect(alias.body.session_id).toBeGreaterThan(native.body.session_id);
    const withoutSession = (b: unknown) => ({ ...(withoutRuntime(b) as object), session_id: 0, session: 0 });
    expect(withoutSession(alias.body)).toEqual(withoutSession(native.body));
    for (const id of [native.body.session_id, alias.body.session_id]) {
      const closed = await request(t.http)
        .delete(`${GW}/services/query/1.0/query/${id}`)
        .auth(...USERS.alice);
      expect(closed.status).toBe(200);
    }
  });

  it('answer the root records as under BASE_PATH', async () => {
    for (const path of ['/version', '/plugins/index.json', '/plugins/index.html']) {
      const native = await get(path);
      const alias = await get(`${GW}${path}`);
      expect([path, native.status, alias.status]).toEqual([path, 200, 200]);
      expect(alias.headers['content-type']).toBe(native.headers['content-type']);
      if (path.endsWith('.html')) expect(alias.text).toBe(native.text);
      else if (path === '/version') expect(alias.body).toEqual(native.body);
      else expect(withoutRuntime(alias.body)).toEqual(withoutRuntime(native.body));
    }
  });

  it('answer the object API under <gateway>/api/1.0 as under /api/1.0, list and item', async () => {
    const native = await get('/api/1.0/epmdocuments?name=*.asm');
    const alias = await get(`${GW}/api/1.0/epmdocuments?name=*.asm`);
    expect([native.status, alias.status]).toEqual([200, 200]);
    expect(withoutRuntime(alias.body)).toEqual(withoutRuntime(native.body));
    expect(alias.body.count).toBeGreaterThan(0);
    const oid = (alias.body.items as { oid: string }[])[0].oid;
    const item = await get(`${GW}/api/1.0/epmdocuments/${oid}`);
    const nativeItem = await get(`/api/1.0/epmdocuments/${oid}`);
    expect([item.status, nativeItem.status]).toEqual([200, 200]);
    expect(withoutRuntime(item.body)).toEqual(withoutRuntime(nativeItem.body));
    expect(item.body).toMatchObject({ oid, item: { oid, isCheckedOut: false } });
  });

  it('need credentials, as the routes do', async () => {
    for (const [path, gatewayPath] of [
      ['/files/version', '/services/files/version'],
      ['/numbers/rules', '/services/numbers/rules'],
      ['/version', '/version'],
      ['/plugins/index.json', '/plugins/index.json'],
    ]) {
      const native = await request(t.http).get(path);
      const alias = await request(t.http).get(`${GW}${gatewayPath}`);
      expect([path, native.status, alias.status]).toEqual([path, 401, 401]);
      expect(alias.headers['www-authenticate']).toBe(native.headers['www-authenticate']);
      expect(envelope(alias)).toEqual(envelope(native));
      expect(envelope(alias)).toEqual({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) });
    }
    const wrong = await request(t.http).get(`${GW}/services/files/version`).auth('alice', 'not-her-password');
    expect(wrong.status).toBe(401);
  });

  it('answer 404 in the error envelope for a service that does not exist', async () => {
    for (const path of [
      `${GW}/services/nope/version`,
      `${GW}/services/attributes/GETRIEBE.ASM`,
      `${GW}/files/version`,
      GW,
    ]) {
      const res = await get(path);
      expect([path, res.status, envelope(res)]).toEqual([
        path,
        404,
        { statusCode: 404, error: 'Not Found', message: `Cannot GET ${path}` },
      ]);
    }
    const native = await get('/nope/version');
    expect([native.status, envelope(native)]).toEqual([
      404,
      { statusCode: 404, error: 'Not Found', message: 'Cannot GET /nope/version' },
    ]);
  });

  it('keep each route’s own answer for what the route refuses', async () => {
    const native = await get('/files/9999999999');
    const alias = await get(`${GW}/services/files/9999999999`);
    expect(native.status).toBe(404);
    expect([alias.status, envelope(alias)]).toEqual([native.status, envelope(native)]);
  });

  it('give the version record as dotted integers from 1.5 on, ignoring the reload header', async () => {
    const files = await get('/files/version');
    for (const path of ['/version', `${GW}/version`]) {
      for (const reload of [false, true]) {
        const req = get(path);
        const res = await (reload ? req.set('nexiles-gateway-reload', 'true') : req);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body).toEqual({ version: '1.5.0', build: files.body.build, date: files.body.date });
        // What the gateway's Python client does with it: int() of the first two parts, at least 1.5.
        const [major, minor] = (res.body.version as string).split('.').map((p) => Number.parseInt(p, 10));
        expect(major > 1 || (major === 1 && minor >= 5)).toBe(true);
      }
    }
    const reloaded = await get(`${GW}/services/files/version`).set('nexiles-gateway-reload', 'true');
    expect([reloaded.status, reloaded.body]).toEqual([200, files.body]);
  });

  it('list every service in plugins/index.json, each with a link into Swagger UI', async () => {
    const res = await get(`${GW}/plugins/index.json`);
    expect(res.status).toBe(200);
    const version = (await get('/files/version')).body as { version: string; build: number; date: string };
    expect(withoutRuntime(res.body)).toEqual({
      count: SERVICE_ROUTES.length,
      items: SERVICE_ROUTES.map((s) => ({
        name: `pdm.${s.name}`,
        version: version.version,
        build: String(version.build),
        date: version.date,
        description: s.description,
        doc_url: `${PUBLIC_URL}/docs#/${s.name}`,
        module: null,
        blueprint: s.name,
      })),
    });
    expect(res.body.items.map((i: { blueprint: string }) => i.blueprint)).toEqual(
      expect.arrayContaining(['reports', 'files', 'numbers', 'query', 'objects', 'admin']),
    );
    // Each link opens Swagger UI, on a tag its document has.
    const ui = await request(t.http).get('/docs');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger-ui');
    const doc = await request(t.http).get('/docs-json');
    const tags = new Set(
      Object.values(doc.body.paths as Record<string, Record<string, { tags?: string[] }>>).flatMap((ops) =>
        Object.values(ops).flatMap((op) => op.tags ?? []),
      ),
    );
    for (const item of res.body.items as { doc_url: string; blueprint: string }[]) {
      expect(new URL(item.doc_url).pathname).toBe('/docs');
      expect(tags.has(item.blueprint)).toBe(true);
    }
  });

  it('show the same list in plugins/index.html, every value escaped', async () => {
    const res = await get(`${GW}/plugins/index.html`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain(`<h1>Plug-ins (${SERVICE_ROUTES.length})</h1>`);
    for (const s of SERVICE_ROUTES) {
      expect(res.text).toContain(`<td>pdm.${s.name}</td>`);
      expect(res.text).toContain(`<a href="${PUBLIC_URL}/docs#/${s.name}">${s.name}</a>`);
    }
  });

  it('cover every route group the application serves (the list the aliases are made of)', async () => {
    const doc = await request(t.http).get('/docs-json');
    expect(doc.status).toBe(200);
    const known = new Set([...SERVICE_ROUTES.map((s) => s.name), 'version', 'plugins', 'api', 'me', 'health']);
    const groups = new Set(Object.keys(doc.body.paths as object).map((p) => p.split('/')[1]));
    expect([...groups].filter((g) => !known.has(g))).toEqual([]);
    expect(SERVICE_ROUTES.map((s) => s.name).filter((s) => !groups.has(s))).toEqual([]);
  });
});

describe('GATEWAY_BASE_PATH set otherwise', () => {
  let off: TestApp;
  let custom: TestApp;
  const CUSTOM = '/nexiles/servlet/nexiles/tools';
  beforeAll(async () => {
    off = await createTestApp({ GATEWAY_BASE_PATH: 'off' });
    custom = await createTestApp({ GATEWAY_BASE_PATH: CUSTOM, BASE_PATH: '/pdm' });
  });
  afterAll(async () => {
    await off?.close();
    await custom?.close();
  });

  it('off: no gateway addresses, the routes as before', async () => {
    for (const path of [`${GW}/services/numbers/version`, `${GW}/version`, `${GW}/plugins/index.json`]) {
      const res = await request(off.http)
        .get(path)
        .auth(...USERS.alice);
      expect([path, res.status, envelope(res)]).toEqual([
        path,
        404,
        { statusCode: 404, error: 'Not Found', message: `Cannot GET ${path}` },
      ]);
    }
    const version = await request(off.http)
      .get('/version')
      .auth(...USERS.alice);
    expect([version.status, version.body.version]).toEqual([200, '1.5.0']);
  });

  it('another path, with BASE_PATH: <custom>/services/<service>/… answers as /pdm/<service>/…', async () => {
    const get = (path: string) =>
      request(custom.http)
        .get(path)
        .set('Host', 'pdm.test')
        .auth(...USERS.alice);
    const native = await get('/pdm/numbers/version');
    const alias = await get(`${CUSTOM}/services/numbers/version`);
    expect([native.status, alias.status]).toEqual([200, 200]);
    expect(alias.body).toEqual(native.body);
    const files = await get(`${CUSTOM}/services/files/0000000001?role=all`);
    const nativeFiles = await get('/pdm/files/0000000001?role=all');
    expect([files.status, withoutRuntime(files.body)]).toEqual([200, withoutRuntime(nativeFiles.body)]);
    const version = await get(`${CUSTOM}/version`);
    expect([version.status, version.body]).toEqual([200, (await get('/pdm/version')).body]);
    const index = await get(`${CUSTOM}/plugins/index.json`);
    expect(index.status).toBe(200);
    expect(index.body.items[0].doc_url).toBe('http://pdm.test/pdm/docs#/reports');
    // The default path is not served, nor the routes outside BASE_PATH.
    const old = await get(`${GW}/services/numbers/version`);
    expect(old.status).toBe(404);
    const unknown = await get(`${CUSTOM}/services/nope`);
    expect([unknown.status, envelope(unknown)]).toEqual([
      404,
      { statusCode: 404, error: 'Not Found', message: `Cannot GET ${CUSTOM}/services/nope` },
    ]);
    // Links are made from the Host header when PUBLIC_URL is not set: whatever it holds is escaped.
    const evil = await request(custom.http)
      .get(`${CUSTOM}/plugins/index.html`)
      .set('Host', 'x"><script>alert(1)</script>')
      .auth(...USERS.alice);
    expect(evil.status).toBe(200);
    expect(evil.text).not.toContain('<script>');
    expect(evil.text).toContain(
      '<a href="http://x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;/pdm/docs#/reports">reports</a>',
    );
    const noCredentials = await request(custom.http).get(`${CUSTOM}/services/numbers/version`);
    expect([noCredentials.status, envelope(noCredentials)]).toEqual([
      401,
      { statusCode: 401, error: 'Unauthorized', message: expect.any(String) },
    ]);
  });
});

describe('the request log of a gateway address', () => {
  let app: NestExpressApplication;
  let http: App;
  const lines: string[] = [];
  beforeAll(async () => {
    const config = loadConfig({ ...process.env, DATABASE_URL: testDatabaseUrl(), LOG_LEVEL: 'info' });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] }).compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false });
    await configureApp(app, config, logger);
    await app.init();
    http = app.getHttpServer() as App;
  });
  afterAll(() => app.close());

  /** The request line logged for an answer, once it is out. */
  async function requestLine(res: request.Response): Promise<Record<string, unknown>> {
    const id = res.headers['x-request-id'] as string;
    for (;;) {
      const line = lines.find((l) => l.includes(id) && l.includes('"msg":"request"'));
      if (line) return JSON.parse(line) as Record<string, unknown>;
      await new Promise((r) => setImmediate(r));
    }
  }

  it('shows the path the client sent (the gateway address), without its query string', async () => {
    const path = `${GW}/services/files/0000000001`;
    const res = await request(http)
      .get(`${path}?role=all`)
      .auth(...USERS.bob);
    expect(res.status).toBe(200);
    expect(await requestLine(res)).toMatchObject({ method: 'GET', path, status: 200, user: 'bob' });
    const unknown = await request(http).get(`${GW}/services/nope?x=1`);
    expect(unknown.status).toBe(404);
    expect(await requestLine(unknown)).toMatchObject({ path: `${GW}/services/nope`, status: 404, user: null });
  });
});
