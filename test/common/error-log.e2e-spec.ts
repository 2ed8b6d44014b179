import { Writable } from 'node:stream';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { pino } from 'pino';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { AppModule } from '../../src/app.module.js';
import { configureApp } from '../../src/app.setup.js';
import { PinoNestLogger } from '../../src/common/logger.js';
import { loadConfig } from '../../src/config/app-config.js';
import { QueryService } from '../../src/query/query.service.js';
import { testDatabaseUrl } from '../helpers/test-database.js';
import { USERS } from '../helpers/test-app.js';

const SECRET = 'token-7f3a9c1e5b';

/**
 * The log lines of failing requests, captured as main.ts writes them (pino for the request
 * lines, NestJS's logger routed into it for errors): they name the path, never the query
 * string or the credentials.
 */
describe('log lines of failing requests', () => {
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
    app = moduleRef.createNestApplication<NestExpressApplication>({
      bodyParser: false,
      logger: new PinoNestLogger(logger),
    });
    await configureApp(app, config, logger);
    await app.init();
    http = app.getHttpServer() as App;
  });
  afterAll(() => app.close());

  beforeEach(() => {
    lines.length = 0;
  });

  /** The lines logged for one request, once its request line is out. */
  async function logOf(res: request.Response): Promise<string> {
    const id = res.headers['x-request-id'] as string;
    while (!lines.some((l) => l.includes(id) && l.includes('"msg":"request"'))) {
      await new Promise((r) => setImmediate(r));
    }
    return lines.join('\n');
  }

  it('logs a 500 with its path and stack, but not its query string or credentials', async () => {
    // An unexpected failure deep in a service (no database error: those are mapped, not logged).
    const service = app.get(QueryService);
    const open = service.open.bind(service);
    service.open = () => Promise.reject(new Error('the query planner fell over'));
    try {
      const res = await request(http)
        .get('/query/1.0/query')
        .query({ q: JSON.stringify({ name: SECRET }), limit: 5 })
        .auth(...USERS.alice);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'internal error',
        requestId: res.headers['x-request-id'],
      });
      const log = await logOf(res);
      expect(log).toContain(`GET /query/1.0/query failed [${res.body.requestId}]`);
      expect(log).toContain('the query planner fell over');
      expect(log).toContain('"path":"/query/1.0/query"');
      expect(log).not.toContain(SECRET);
      expect(log).not.toContain('limit=5');
      expect(log).not.toContain(USERS.alice[1]);
    } finally {
      service.open = open;
    }
  });

  it('logs a refused request without its query string or the password tried', async () => {
    const res = await request(http)
      .get(`/files/version?access_token=${SECRET}`)
      .auth(USERS.alice[0], `${SECRET}-password`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    const log = await logOf(res);
    expect(log).toContain('"path":"/files/version"');
    expect(log).not.toContain(SECRET);
  });
});
