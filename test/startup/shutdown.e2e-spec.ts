import { request as httpRequest } from 'node:http';
import type pg from 'pg';
import { importFilesFixture, itemsOf, oidOf, removeFilesFixture } from '../files/files-fixtures.js';
import { RawConnection } from '../helpers/raw-http.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';
import { until } from '../reports/report-fixtures.js';
import { freePort, startService, waitForOutput, waitReady } from './service-process.js';

const PREFIX = 'SHUT';
const AUTH = `Basic ${Buffer.from('alice:alice-pw').toString('base64')}`;

describe('graceful shutdown', () => {
  let db: pg.Pool;
  beforeAll(async () => {
    db = testPool();
    await importFilesFixture(PREFIX);
  });
  afterAll(async () => {
    await removeFilesFixture(db, PREFIX);
    await db.end();
  });

  it('on SIGTERM finishes an upload in flight, refuses new connections, and exits 0', async () => {
    const port = await freePort();
    const service = startService({ DATABASE_URL: testDatabaseUrl(), PORT: String(port), MIGRATE_ON_START: 'false' });
    await waitForOutput(service, 'serving on');
    await waitReady(service, port);

    const body = Buffer.alloc(2 * 1024 * 1024, 'x');
    const upload = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/files/${PREFIX}-1/in-flight.bin`,
      headers: {
        Authorization: AUTH,
        'Content-Type': 'application/octet-stream',
        'Content-Length': body.length,
        // The service answers 100 Continue once it has the request: from then on it is in flight.
        Expect: '100-continue',
      },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      upload.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      upload.on('error', reject);
    });
    upload.flushHeaders();
    await new Promise<void>((resolve, reject) => {
      upload.once('continue', resolve);
      upload.once('error', reject);
    });
    await new Promise<void>((resolve, reject) =>
      upload.write(body.subarray(0, body.length / 2), (e) => (e ? reject(e) : resolve())),
    );

    service.child.kill('SIGTERM');
    // Logged as the listening socket is closed, in the same turn of the event loop.
    await waitForOutput(service, 'SIGTERM: shutting down', 10_000);
    const refused = await fetch(`http://127.0.0.1:${port}/files/version`, { headers: { Authorization: AUTH } }).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).toBe('refused');

    upload.end(body.subarray(body.length / 2));
    const res = await answer;
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({ success: true });
    expect(await service.exited).toBe(0);

    const items = await itemsOf(db, await oidOf(db, 'wt.doc.WTDocument', `${PREFIX}-1`));
    expect(items.find((i) => i.file_name === 'in-flight.bin')).toMatchObject({ size: String(body.length) });
  }, 60_000);
});

/** A report over report_templates: it waits while the test holds that table locked. */
const TEMPLATES_REPORT = `<qml><statement><query><select><column alias="T" heading="Name">name</column></select>
<from><table alias="T">wt.query.template.ReportTemplate</table></from></query></statement></qml>`;

/**
 * Longer than the 10 s SHUTDOWN_TIMEOUT_MS used to be, well within REPORT_TIMEOUT_MS (30 s) and
 * DB_STATEMENT_TIMEOUT_MS: work the service accepted and may still finish, so it must.
 */
const HELD_MS = 11_000;

describe('graceful shutdown of reports and query opens', () => {
  let db: pg.Pool;
  beforeAll(() => {
    db = testPool();
  });
  afterAll(async () => {
    await db.end();
  });

  it('on SIGTERM finishes a report and a query open in flight, each with its answer and log line, and exits 0', async () => {
    const port = await freePort();
    const service = startService({ DATABASE_URL: testDatabaseUrl(), PORT: String(port), MIGRATE_ON_START: 'false' });
    await waitForOutput(service, 'serving on');
    await waitReady(service, port);
    const call = (path: string, init: RequestInit, user = AUTH) =>
      fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers: { Authorization: user, ...init.headers } }).then(
        async (res) => ({ status: res.status, body: await res.text() }),
      );
    const bob = `Basic ${Buffer.from('bob:bob-pw').toString('base64')}`;
    const q = encodeURIComponent(JSON.stringify({ type: 'wt.doc.WTDocument' }));

    const locker = await db.connect();
    let report: Promise<{ status: number; body: string }> | undefined;
    let open: Promise<{ status: number; body: string }> | undefined;
    try {
      await locker.query('BEGIN');
      // The report waits to read report_templates, the open to keep its session.
      await locker.query('LOCK TABLE report_templates IN ACCESS EXCLUSIVE MODE');
      await locker.query('LOCK TABLE query_sessions IN SHARE MODE');
      report = call('/reports', { method: 'POST', headers: { 'Content-Type': 'text/xml' }, body: TEMPLATES_REPORT });
      open = call(`/query/1.0/query?q=${q}&limit=1`, {}, bob);
      await until('the report and the open wait for the locked tables', async () => {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
             AND (query LIKE '%"report_templates"%' OR query LIKE '%INSERT INTO query_sessions%')`,
        );
        return rows[0].n === 2;
      });
      service.child.kill('SIGTERM');
      await waitForOutput(service, 'SIGTERM: shutting down', 10_000);
      await new Promise((r) => setTimeout(r, HELD_MS));
      expect(service.child.exitCode).toBeNull();
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    const [reported, opened] = await Promise.all([report!, open!]);
    expect(reported.status).toBe(200);
    expect(JSON.parse(reported.body)).toMatchObject({ count: expect.any(Number), items: expect.any(Array) });
    expect(opened.status).toBe(200);
    const session = JSON.parse(opened.body) as { session_id: number; count: number };
    expect(session).toMatchObject({ session_id: expect.any(Number), count: 1 });
    await db.query('DELETE FROM query_sessions WHERE id = $1', [session.session_id]);
    expect(await service.exited).toBe(0);

    const requests = service
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line) as { method: string; path: string; status: number });
    expect(requests.filter((r) => r.path !== '/health/ready')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'POST', path: '/reports', status: 200 }),
        expect.objectContaining({ method: 'GET', path: '/query/1.0/query', status: 200 }),
      ]),
    );
  }, 90_000);
});

describe('shutdown past SHUTDOWN_TIMEOUT_MS', () => {
  beforeAll(async () => {
    await importFilesFixture(`${PREFIX}D`);
  });
  afterAll(async () => {
    const db = testPool();
    await removeFilesFixture(db, `${PREFIX}D`);
    await db.end();
  });

  it('closes what is still open, logging each request it cut off, and exits 1', async () => {
    const port = await freePort();
    const service = startService({
      DATABASE_URL: testDatabaseUrl(),
      PORT: String(port),
      MIGRATE_ON_START: 'false',
      REPORT_TIMEOUT_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: '1000',
      DB_LOCK_TIMEOUT_MS: '500',
      DB_CONNECT_TIMEOUT_MS: '500',
      SHUTDOWN_TIMEOUT_MS: '2000',
      HTTP_IDLE_TIMEOUT_MS: '60000',
    });
    await waitForOutput(service, 'serving on');
    await waitReady(service, port);
    // An upload whose client stops sending half-way: the one thing that outlasts the deadline.
    const c = await RawConnection.connect(port);
    try {
      await c.head('POST', `/files/${PREFIX}D-1/stalled.bin`, {
        Authorization: AUTH,
        'Content-Type': 'application/octet-stream',
        'Content-Length': '100000',
        // Answered once the service has the request: from then on it is in flight.
        Expect: '100-continue',
      });
      expect(await c.response()).toMatchObject({ status: 100 });
      await c.write(Buffer.alloc(1000, 'x'));
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(1);
    } finally {
      c.destroy();
    }
    expect(service.output()).toContain('SHUTDOWN_TIMEOUT_MS (2000 ms) passed: closing the connections still open');
    const cut = service
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"request"') && line.includes('stalled.bin'));
    expect(cut.map((line) => JSON.parse(line) as { status: number })).toEqual([
      expect.objectContaining({ method: 'POST', status: 499 }),
    ]);
  }, 60_000);
});
