import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sqlState } from '../common/database-errors.js';
import { checkDatabaseReachable, DatabaseUnreachableError, unreachableMessage } from './database-reachable.js';
import { stopWhenDone } from '../patches/prisma-migrate-deploy-exit.js';

/** The project root: the folder holding prisma.config.ts. */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'prisma.config.ts'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('prisma.config.ts not found');
    dir = parent;
  }
  return dir;
}

/** The migrations shipped with this build (folders of prisma/migrations under `root`), in order. */
export function migrationNames(root = projectRoot()): string[] {
  return readdirSync(join(root, 'prisma', 'migrations'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** A row of Prisma's bookkeeping table, `_prisma_migrations`. */
export interface MigrationRow {
  name: string;
  finished: boolean;
  rolledBack: boolean;
  /** What the migration logged: set when it failed. */
  logs: string | null;
}

/** What `_prisma_migrations` says of the migrations `names`. */
export interface MigrationState {
  /** Applied: a row finished and not rolled back. */
  applied: string[];
  /** Failed: a row neither finished nor rolled back, with logs (Prisma's P3009 "failed migrations"). */
  failed: string[];
  /** Not applied (the failed ones among them). */
  pending: string[];
}

/** The state of the migrations `names` by the table's rows (none: the table is missing). */
export function migrationState(names: string[], rows: MigrationRow[]): MigrationState {
  const applied = new Set(rows.filter((r) => r.finished && !r.rolledBack).map((r) => r.name));
  const failed = new Set(rows.filter((r) => !r.finished && !r.rolledBack && r.logs !== null).map((r) => r.name));
  return {
    applied: names.filter((n) => applied.has(n)),
    failed: [...failed].filter((n) => !applied.has(n)).sort(),
    pending: names.filter((n) => !applied.has(n)),
  };
}

/** The rows of `_prisma_migrations` at `databaseUrl`; none when the table is missing (never migrated). */
async function migrationRows(databaseUrl: string): Promise<MigrationRow[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined); // a lost connection fails the query below instead
  try {
    await client.connect();
  } catch (e) {
    throw new DatabaseUnreachableError(unreachableMessage(databaseUrl, e));
  }
  try {
    const res = await client.query<MigrationRow>(
      `SELECT migration_name AS name, finished_at IS NOT NULL AS finished,
              rolled_back_at IS NOT NULL AS "rolledBack", logs
       FROM _prisma_migrations`,
    );
    return res.rows;
  } catch (e) {
    if (sqlState(e)?.code === '42P01') return []; // undefined_table
    throw e;
  } finally {
    await client.end();
  }
}

/**
 * The migrations of this build (of the project at `root`) not applied to the database at
 * `databaseUrl` (all of them when Prisma's bookkeeping table is missing: the database was never
 * migrated).
 */
export async function pendingMigrations(databaseUrl: string, root = projectRoot()): Promise<string[]> {
  return migrationState(migrationNames(root), await migrationRows(databaseUrl)).pending;
}

/** How `prisma migrate deploy` ended, and everything it printed. */
interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** Runs `prisma migrate deploy` in `root` on `databaseUrl`. */
function migrateDeploy(databaseUrl: string, root: string): Promise<CliRun> {
  const cli = createRequire(join(root, 'package.json')).resolve('prisma/build/index.js');
  return new Promise<CliRun>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'migrate', 'deploy'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Prisma 6.19's CLI lingers 10 s after its work is done: stopped once it says so.
    stopWhenDone(child);
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, output }));
  });
}

/**
 * Applies pending migrations with `prisma migrate deploy` (the JavaScript schema engine) and
 * returns the names of those it applied (none: the schema was up to date). A server that cannot be
 * reached fails with a DatabaseUnreachableError first.
 *
 * Whether it succeeded is read from Prisma's table afterwards, not from what the CLI printed nor
 * from how it exited: every migration of this build has a row finished and not rolled back, and no
 * row has failed. Otherwise the error names the migrations that failed and those not applied, and
 * gives the CLI's output. `root` is the project (prisma.config.ts, prisma/migrations).
 */
export async function applyMigrations(databaseUrl: string, root = projectRoot()): Promise<string[]> {
  await checkDatabaseReachable(databaseUrl);
  const names = migrationNames(root);
  const before = migrationState(names, await migrationRows(databaseUrl));
  const run = await migrateDeploy(databaseUrl, root);
  const after = migrationState(names, await migrationRows(databaseUrl));
  if (after.failed.length || after.pending.length) throw new Error(failureMessage(run, after));
  return before.pending;
}

function failureMessage(run: CliRun, state: MigrationState): string {
  const ended = run.signal ? `stopped by ${run.signal}` : `exit ${run.code}`;
  const notApplied = state.pending.filter((n) => !state.failed.includes(n));
  const table = [
    state.failed.length ? `failed: ${state.failed.join(', ')}` : '',
    notApplied.length ? `not applied: ${notApplied.join(', ')}` : '',
  ].filter(Boolean);
  return `prisma migrate deploy failed (${ended}; _prisma_migrations: ${table.join('; ')})${causeFirst(run.output)}`;
}

/**
 * The CLI's output with its error first: it comes after lines about the configuration and a
 * warning about the schema, which are not the cause.
 */
function causeFirst(output: string): string {
  const text = output.trim();
  const at = text.search(/^Error:/m);
  if (at <= 0) return `:\n${text}`;
  return `: ${text.slice(at).trim()}\n\nthe output of prisma migrate deploy:\n${text.slice(0, at).trim()}`;
}
