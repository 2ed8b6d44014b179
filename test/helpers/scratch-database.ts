import { randomBytes } from 'node:crypto';
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

/** What test/global-setup.mjs wrote down: no adminUrl on an embedded run. */
interface RunState {
  adminUrl: string | null;
  template?: string | null;
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
 * run has no server): empty, or migrated and loaded with the demo data. On a server the latter
 * is a copy of the run's template database (test/global-setup.mjs), made in a moment. For tests
 * that change the demo data or need a database no migration has touched.
 */
export async function scratchDatabase(opts: { demo: boolean }): Promise<ScratchDatabase> {
  const state = JSON.parse(readFileSync(process.env.PDM_TEST_STATE_FILE!, 'utf8')) as RunState;
  if (state.adminUrl) {
    const adminUrl = state.adminUrl;
    const name = `pdm_test_scratch_${Date.now()}_${process.pid}_${randomBytes(3).toString('hex')}`;
    const copy = opts.demo && state.template;
    await admin(
      adminUrl,
      copy ? `CREATE DATABASE "${name}" TEMPLATE "${state.template}"` : `CREATE DATABASE "${name}"`,
    );
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = { url: url.toString(), drop: () => admin(adminUrl, `DROP DATABASE "${name}" WITH (FORCE)`) };
    if (opts.demo && !copy) await migrateAndSeed(db.url);
    return db;
  }
  const dir = mkdtempSync(join(tmpdir(), 'pdm-scratch-'));
  const embedded = await startEmbeddedPostgres(dir);
  const db = {
    url: embedded.url,
    drop: async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (opts.demo) await migrateAndSeed(db.url);
  return db;
}

async function migrateAndSeed(url: string): Promise<void> {
  await applyMigrations(url);
  await seedDemoData(url);
}
