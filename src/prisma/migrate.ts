import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sqlState } from '../common/database-errors.js';
import { checkDatabaseReachable, DatabaseUnreachableError, unreachableMessage } from './database-reachable.js';

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

/** The migrations shipped with this build (folders of prisma/migrations), in order. */
export function migrationNames(): string[] {
  return readdirSync(join(projectRoot(), 'prisma', 'migrations'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/**
 * The migrations of this build not applied to the database at `databaseUrl` (all of them when
 * Prisma's bookkeeping table is missing: the database was never migrated).
 */
export async function pendingMigrations(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined); // a lost connection fails the query below instead
  try {
    await client.connect();
  } catch (e) {
    throw new DatabaseUnreachableError(unreachableMessage(databaseUrl, e));
  }
  try {
    const res = await client.query<{ name: string }>(
      `SELECT migration_name AS name FROM _prisma_migrations
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(res.rows.map((r) => r.name));
    return migrationNames().filter((m) => !applied.has(m));
  } catch (e) {
    if (sqlState(e)?.code === '42P01') return migrationNames(); // undefined_table
    throw e;
  } finally {
    await client.end();
  }
}

// `prisma migrate deploy` prints one of these when it is done. The WebAssembly schema engine of
// Prisma 6.19 then leaves a 10-second timer running, so the process lingers although its work is
// committed: once the line is out (and stderr is quiet), the process is stopped instead of waited for.
const DONE = /All migrations have been successfully applied\.|No pending migrations to apply\./;

// Each migration it applied is listed as a folder line under "The following migration(s) have been applied".
const APPLIED = /^\s*└─ (\S+)\/$/gm;

/**
 * Applies pending migrations with `prisma migrate deploy` (the JavaScript schema engine) and
 * returns the names of those it applied (none: the schema was up to date). A server that cannot be
 * reached fails with a DatabaseUnreachableError first.
 */
export async function applyMigrations(databaseUrl: string): Promise<string[]> {
  await checkDatabaseReachable(databaseUrl);
  const root = projectRoot();
  const cli = createRequire(join(root, 'package.json')).resolve('prisma/build/index.js');
  const printed = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'migrate', 'deploy'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let done = false;
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (!done && DONE.test(output)) {
        done = true;
        setTimeout(() => child.kill(), 300).unref();
      }
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 || done
        ? resolve(output)
        : reject(new Error(`prisma migrate deploy failed (exit ${code})${causeFirst(output)}`)),
    );
  });
  return [...printed.matchAll(APPLIED)].map((m) => m[1]);
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
