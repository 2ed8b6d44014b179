// Drops the databases made for the run, the template last (or stops the embedded one).
import { readFileSync, rmSync } from 'node:fs';
import pg from 'pg';

export default async function globalTeardown() {
  const file = process.env.PDM_TEST_STATE_FILE;
  if (!file) return;
  const state = JSON.parse(readFileSync(file, 'utf8'));
  if (globalThis.__embeddedPg) await globalThis.__embeddedPg.stop();
  if (state.adminUrl && state.name && process.env.KEEP_TEST_DATABASE !== 'true') {
    const client = new pg.Client({ connectionString: state.adminUrl });
    await client.connect();
    try {
      for (const name of [state.name, state.template].filter(Boolean)) {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }
    } finally {
      await client.end();
    }
  }
  rmSync(file, { force: true });
}
