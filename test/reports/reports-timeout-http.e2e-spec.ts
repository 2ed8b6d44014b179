import type pg from 'pg';
import { listeningPort } from '../helpers/raw-http.js';
import { testDatabaseUrl, testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { startService } from '../startup/service-process.js';
import { until } from './report-fixtures.js';

/** A report over report_templates: it waits while the test holds that table locked. */
const TEMPLATES = `<qml><statement><query><select><column alias="T" heading="Name">name</column></select>
<from><table alias="T">wt.query.template.ReportTemplate</table></from></query></statement></qml>`;

/** Resolves with `work`'s result, or fails with `what` once `ms` passed without it. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A report that reaches REPORT_TIMEOUT_MS is answered 504, over a real connection: the server's
 * idle timeout (HTTP_IDLE_TIMEOUT_MS), which a connection waiting for its answer is subject to,
 * must not close it first, so a configuration where it would is refused at start.
 */
describe('a report past REPORT_TIMEOUT_MS over HTTP', () => {
  it('is refused at start when HTTP_IDLE_TIMEOUT_MS would cut its 504, naming the conflict', async () => {
    const service = startService({
      DATABASE_URL: testDatabaseUrl(),
      PORT: '0',
      MIGRATE_ON_START: 'false',
      REPORT_TIMEOUT_MS: '1000',
      DB_CONNECT_TIMEOUT_MS: '500',
      HTTP_IDLE_TIMEOUT_MS: '1000',
    });
    try {
      expect(await within(30_000, 'the service to refuse its configuration', service.exited)).toBe(1);
    } finally {
      service.child.kill('SIGKILL');
    }
    expect(service.output()).toContain('invalid configuration');
    expect(service.output()).toContain(
      'HTTP_IDLE_TIMEOUT_MS: 1000 must be longer than DB_STATEMENT_TIMEOUT_MS + DB_CONNECT_TIMEOUT_MS (30500 ms)',
    );
  });

  describe('with short limits', () => {
    let db: pg.Pool;
    const t = useTestApp({
      REPORT_TIMEOUT_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: '1000',
      DB_LOCK_TIMEOUT_MS: '500',
      DB_CONNECT_TIMEOUT_MS: '500',
      HTTP_IDLE_TIMEOUT_MS: '3000',
      SHUTDOWN_TIMEOUT_MS: '3000',
    });
    beforeAll(() => {
      db = testPool();
    });
    afterAll(async () => {
      await db.end();
    });

    it('answers the documented 504 JSON, not an empty reply', async () => {
      const port = await listeningPort(t);
      const locker = await db.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE report_templates IN ACCESS EXCLUSIVE MODE');
        const answer = fetch(`http://127.0.0.1:${port}/reports`, {
          method: 'POST',
          headers: {
            Authorization: `Basic ${Buffer.from('alice:alice-pw').toString('base64')}`,
            'Content-Type': 'text/xml',
          },
          body: TEMPLATES,
        }).then(async (res) => ({ status: res.status, body: await res.text() }));
        await until('the report waits for the locked table', async () => {
          const { rows } = await db.query(
            `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%"report_templates"%'`,
          );
          return rows.length > 0;
        });
        const res = await within(20_000, 'the answer of a report past its timeout', answer);
        expect(res.status).toBe(504);
        expect(JSON.parse(res.body)).toEqual({
          statusCode: 504,
          error: 'Gateway Timeout',
          message: 'the report query ran longer than REPORT_TIMEOUT_MS (1000 ms) and was cancelled',
          requestId: expect.any(String),
        });
      } finally {
        await locker.query('ROLLBACK');
        locker.release();
      }
    });
  });
});
