import pg from 'pg';
import { AUTH_NOTICES_APPLICATION } from '../../src/auth/auth-notices.repository.js';
import { importFilesFixture, removeFilesFixture } from '../files/files-fixtures.js';
import { embeddedTestRun, testDatabaseUrl } from '../helpers/test-database.js';
import { createContainer, generateUrl, type TestContainer } from '../numbers/numbers-fixtures.js';
import { docQuery, NUMBER, until } from '../reports/report-fixtures.js';
import { freePort, startService, waitForOutput, waitReady, type ServiceProcess } from '../startup/service-process.js';

/**
 * Database connections of a running service killed from another connection (pg_terminate_backend,
 * as an operator or a restarting server does): a connection lost while idle in a pool, checked out
 * between two statements or in the middle of one must never end the process (an 'error' event of a
 * pg client without a listener would). The request using it is answered 503; the service goes on.
 * The service runs as its own process, so that a crash shows as an exit, not as a failed test file.
 */
const PREFIX = 'KILL';
const ALICE = `Basic ${Buffer.from('alice:alice-pw').toString('base64')}`;

/** A report over report_templates: it waits while the test holds that table locked. */
const TEMPLATES = `<qml><statement><query><select><column alias="T" heading="Name">name</column></select>
<from><table alias="T">wt.query.template.ReportTemplate</table></from></query></statement></qml>`;

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

// The embedded database serves one connection: nothing to kill beside the service's own.
(embeddedTestRun() ? describe.skip : describe)('database connections killed under a running service', () => {
  let db: pg.Pool;
  let started: Date;
  let container: TestContainer;
  let service: ServiceProcess;
  let base: string;

  const call = (path: string, init: RequestInit = {}): Promise<Answer> =>
    fetch(`${base}${path}`, { ...init, headers: { Authorization: ALICE, ...init.headers } }).then(async (res) => ({
      status: res.status,
      headers: res.headers,
      body: await res.text(),
    }));
  const report = (qml: string) =>
    call('/reports', { method: 'POST', headers: { 'Content-Type': 'text/xml' }, body: qml });

  /** Ends the service's connections matching `where` (on pg_stat_activity); answers how many. */
  async function kill(where: string, params: unknown[] = []): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
         AND application_name NOT LIKE 'pdm-test%' AND (${where})`,
      params,
    );
    return rows[0].n;
  }

  /** The service still runs and answers: ready, and a report with its rows. */
  async function expectServing(): Promise<void> {
    expect(service.child.exitCode).toBeNull();
    expect(service.child.signalCode).toBeNull();
    await waitReady(service, Number(new URL(base).port), '', 20_000);
    const res = await report(docQuery(NUMBER));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ count: expect.any(Number), items: expect.any(Array) });
  }

  beforeAll(async () => {
    // Connections of the test itself (named so) are never killed.
    db = new pg.Pool({ connectionString: testDatabaseUrl(), max: 3, application_name: 'pdm-test-kills' });
    started = (await db.query<{ now: Date }>('SELECT now()')).rows[0].now;
    await importFilesFixture(PREFIX);
    container = await createContainer(db, {
      name: 'Kill Numbers',
      members: { alice: 'author' },
      rules: [{ cls: 'wt.doc.WTDocument', width: 6, next: 1 }],
    });
  });

  // A service of its own for each test: one that crashed fails its own test only.
  beforeEach(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    service = startService({
      DATABASE_URL: testDatabaseUrl(),
      PORT: String(port),
      MIGRATE_ON_START: 'false',
      DB_POOL_MAX: '4',
    });
    await waitForOutput(service, 'serving on');
    await waitReady(service, port);
  });

  afterEach(async () => {
    service.child.kill('SIGTERM');
    await service.exited;
  });

  afterAll(async () => {
    // The mixed traffic opens query sessions as alice until her limit: closed, so that the files
    // run after this one, on the same database, can open theirs.
    await db.query(
      `UPDATE query_sessions SET closed_at = now(), close_reason = 'closed'
       WHERE user_id = (SELECT id FROM users WHERE name = 'alice') AND closed_at IS NULL AND created_at >= $1`,
      [started],
    );
    await removeFilesFixture(db, PREFIX);
    await db.query('DELETE FROM containers WHERE id = $1', [container.id]);
    await db.end();
  });

  it('a report whose connection is killed mid-statement is answered 503, and the process goes on', async () => {
    const locker = await db.connect();
    let answer: Promise<Answer> | undefined;
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE report_templates IN ACCESS EXCLUSIVE MODE');
      answer = report(TEMPLATES);
      await until('the report waits for the locked table', async () => {
        const { rows } = await db.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%"report_templates"%'`,
        );
        return rows.length > 0;
      });
      expect(await kill(`wait_event_type = 'Lock' AND query LIKE '%"report_templates"%'`)).toBe(1);
      const res = await answer;
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(res.body)).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'the database is unavailable; retry shortly',
        requestId: expect.any(String),
      });
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    await expectServing();
  });

  it('connections killed while idle in the pools are dropped, and the next requests are served', async () => {
    // Fill each pool with idle connections: reports (their own pool) and files (the primary).
    await Promise.all([0, 1, 2].map(() => report(docQuery(NUMBER))));
    await Promise.all([0, 1, 2].map(() => call(`/files/${PREFIX}-1?role=all`)));
    expect(await kill(`state = 'idle' AND application_name <> $1`, [AUTH_NOTICES_APPLICATION])).toBeGreaterThan(0);
    // Logged, as any lost connection is.
    await waitForOutput(service, 'pool: a database connection was lost (terminating connection', 10_000);
    await expectServing();
    const files = await call(`/files/${PREFIX}-1?role=all`);
    expect(files.status).toBe(200);
  });

  it('the connection listening for sign-in notices, killed again and again, is re-established', async () => {
    const killed: number[] = [];
    /** The pid of the listening connection once there is one other than those killed. */
    const listener = async (): Promise<number> => {
      let pid = 0;
      await until('the service listens for sign-in notices', async () => {
        const { rows } = await db.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1
             AND NOT (pid = ANY($2::int4[]))`,
          [AUTH_NOTICES_APPLICATION, killed],
        );
        pid = rows[0]?.pid ?? 0;
        return pid > 0;
      });
      return pid;
    };
    for (let round = 0; round < 5; round++) {
      const pid = await listener();
      expect(await kill('pid = $1', [pid])).toBe(1);
      killed.push(pid);
    }
    await listener();
    await expectServing();
    expect(service.output()).toContain('lost the connection listening for sign-in notices');
  }, 90_000);

  it('survives its connections killed again and again under writes, uploads, reports and queries', async () => {
    let stop = false;
    const statuses = new Map<number, number>();
    const count = (res: Answer | Error) => {
      const status = res instanceof Error ? 0 : res.status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    };
    const q = encodeURIComponent(JSON.stringify({ type: 'wt.doc.WTDocument', number: '00000000*' }));
    const traffic = [
      () => call(generateUrl('wt.doc.WTDocument', { 'container-name': 'Kill Numbers', count: 2 }), { method: 'POST' }),
      () =>
        call(`/files/${PREFIX}-1/kill-${Math.random()}.bin`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/octet-stream' },
          body: Buffer.alloc(6 * 1024 * 1024, 'k'),
        }),
      () => report(docQuery(NUMBER)),
      () => call(`/query/1.0/query?q=${q}&limit=2`),
      () => call(`/files/${PREFIX}-1?role=all`),
    ];
    const clients = traffic.map(async (send) => {
      while (!stop) count(await send().catch((e: Error) => e));
    });
    try {
      for (let round = 0; round < 15; round++) {
        await new Promise((r) => setTimeout(r, 150));
        await kill('true');
        expect(service.child.exitCode).toBeNull();
      }
    } finally {
      stop = true;
      await Promise.all(clients);
    }
    // Every answer was an answer (no connection reset): successes and 503s.
    expect(statuses.get(0)).toBeUndefined();
    expect([...statuses.keys()].filter((s) => s >= 500 && s !== 503)).toEqual([]);
    await expectServing();
  }, 90_000);
});
