import request from 'supertest';
import type pg from 'pg';
import { USERS } from '../helpers/test-app.js';
import { testPool } from '../helpers/test-database.js';
import { useTestApp } from '../helpers/use-test-app.js';
import { expectError } from '../security/security-helpers.js';
import { demoQml, until } from './report-fixtures.js';

const PREFIX = `races-spec-${process.pid}`;

describe('PUT /reports/<name> racing another create of the same name', () => {
  let db: pg.Pool;
  const t = useTestApp();
  beforeAll(async () => {
    db = testPool();
  });
  afterAll(async () => {
    await db.query('DELETE FROM report_templates WHERE name LIKE $1', [`${PREFIX}%`]);
    await db.end();
  });

  /**
   * Another connection inserts the name and keeps its transaction open; the PUT, which did not
   * see that row, waits on the unique index until the test ends the transaction with `end`.
   */
  async function race(name: string, end: 'COMMIT' | 'ROLLBACK'): Promise<request.Response> {
    const other = await db.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO report_templates (name, container_id, qml, modified_at)
         SELECT $1, id, $2, now() FROM containers WHERE name = 'Standard Parts'`,
        [name, demoQml('Files per state')],
      );
      const put = request(t.http)
        .put(`/reports/${encodeURIComponent(name)}?container=Standard%20Parts`)
        .auth(...USERS.carol)
        .set('Content-Type', 'text/xml')
        .send(demoQml('Released parts'))
        .then((r) => r);
      await until('the create waits for the other transaction', async () => {
        const { rows } = await db.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE 'INSERT INTO%report_templates%'`,
        );
        return rows.length > 0;
      });
      await other.query(end);
      return await put;
    } finally {
      other.release();
    }
  }

  it('answers 409 when the other create commits, and keeps the other template', async () => {
    const name = `${PREFIX} committed`;
    const res = await race(name, 'COMMIT');
    expectError(res, 409, `a report template named "${name}" exists already; nothing was stored`, [name]);
    const { rows } = await db.query('SELECT qml FROM report_templates WHERE name = $1', [name]);
    expect(rows).toEqual([{ qml: demoQml('Files per state') }]);
  });

  it('creates the template when the other create rolls back', async () => {
    const name = `${PREFIX} rolled back`;
    const res = await race(name, 'ROLLBACK');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, container: 'Standard Parts', qml: demoQml('Released parts') });
  });
});
