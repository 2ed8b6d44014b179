// Creates the databases for this test run. Plain JavaScript over the compiled sources
// (`npm test` builds first) because Jest loads global setup outside its module mapper.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../dist/src/prisma/embedded-postgres.js';
import { applyMigrations } from '../dist/src/prisma/migrate.js';
import { seedDemoData } from '../dist/src/import/demo-seed.js';

async function adminQuery(url, sql) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function databaseUrl(serverUrl, name) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * On DATABASE_URL's server (else 127.0.0.1:5432 as postgres): a template database, migrated and
 * loaded with the demo data once, and the run's database copied from it, which the end-to-end
 * files share. Files that need a database of their own copy the template too (a file copy in
 * PostgreSQL, far cheaper than migrating and seeding again). When no server answers and
 * DATABASE_URL is not set, an in-memory embedded PostgreSQL stands in, with no template.
 */
export default async function globalSetup() {
  const serverUrl = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = `pdm_test_${Date.now()}_${process.pid}`;
  const template = `${name}_template`;
  const stateFile = join(tmpdir(), `${name}.json`);
  process.env.PDM_TEST_STATE_FILE = stateFile;
  let state;
  try {
    await adminQuery(serverUrl, `CREATE DATABASE "${template}"`);
  } catch (e) {
    if (process.env.DATABASE_URL) throw e;
    console.warn(`\nno PostgreSQL at ${serverUrl} (${e.message}); using the embedded database`);
    const embedded = await startEmbeddedPostgres(join(tmpdir(), name));
    globalThis.__embeddedPg = embedded;
    state = { url: embedded.url, adminUrl: null, name: null, template: null };
    process.env.PDM_TEST_DATABASE_URL = state.url;
    writeFileSync(stateFile, JSON.stringify(state));
    await applyMigrations(state.url);
    await seedDemoData(state.url);
    return;
  }
  // Written before the template is filled, so the teardown drops it even when that fails.
  state = { url: databaseUrl(serverUrl, name), adminUrl: serverUrl, name, template };
  writeFileSync(stateFile, JSON.stringify(state));
  const templateUrl = databaseUrl(serverUrl, template);
  await applyMigrations(templateUrl);
  await seedDemoData(templateUrl);
  await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  process.env.PDM_TEST_DATABASE_URL = state.url;
}
