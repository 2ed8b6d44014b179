import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { seedDemoData } from '../../src/import/demo-seed.js';
import { startEmbeddedPostgres } from '../../src/prisma/embedded-postgres.js';
import { applyMigrations } from '../../src/prisma/migrate.js';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own for one test file, beside the run's (on an embedded database when the
 * run has no server): empty, or migrated and loaded with the demo data. For tests that change
 * the demo data or need a database no migration has touched.
 */
export async function scratchDatabase(opts: { demo: boolean }): Promise<ScratchDatabase> {
  const state = JSON.parse(readFileSync(process.env.PDM_TEST_STATE_FILE!, 'utf8')) as { adminUrl: string | null };
  let db: ScratchDatabase;
  if (state.adminUrl) {
    const adminUrl = state.adminUrl;
    const name = `pdm_test_scratch_${Date.now()}_${process.pid}`;
    await admin(adminUrl, `CREATE DATABASE "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    db = { url: url.toString(), drop: () => admin(adminUrl, `DROP DATABASE "${name}" WITH (FORCE)`) };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'pdm-scratch-'));
    const embedded = await startEmbeddedPostgres(dir);
    db = {
      url: embedded.url,
      drop: async () => {
        await embedded.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (opts.demo) {
    await applyMigrations(db.url);
    await seedDemoData(db.url);
  }
  return db;
}
