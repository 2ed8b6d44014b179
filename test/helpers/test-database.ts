import { readFileSync } from 'node:fs';
import pg from 'pg';

/** The URL of the database made for this test run (see test/global-setup.mjs). */
export function testDatabaseUrl(): string {
  if (process.env.PDM_TEST_DATABASE_URL) return process.env.PDM_TEST_DATABASE_URL;
  const file = process.env.PDM_TEST_STATE_FILE;
  if (!file) throw new Error('no test database: run the tests with `npm test`');
  return (JSON.parse(readFileSync(file, 'utf8')) as { url: string }).url;
}

/**
 * Whether this run has no PostgreSQL server and uses the embedded database (see
 * test/global-setup.mjs), which serves one connection at a time.
 */
export function embeddedTestRun(): boolean {
  const file = process.env.PDM_TEST_STATE_FILE;
  if (!file) return false;
  return !(JSON.parse(readFileSync(file, 'utf8')) as { adminUrl: string | null }).adminUrl;
}

/** A pg pool on the test database, for checking what the service stored. */
export function testPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
  // An idle connection ended by a test that kills backends must not end the test process.
  pool.on('error', () => undefined);
  return pool;
}
