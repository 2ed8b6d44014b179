/**
 * npm run files:migrate -- --to <postgres|filesystem|s3> [--from <store>] (in a clone: builds
 * first when a source changed), or as in the production image: npm run files:migrate:prod -- --to s3
 * (node dist/src/files/stores/files-migrate.cli.js --to s3). Moves file bytes between stores while the
 * service runs, configured by the same variables as the service (DATABASE_URL, FILES_VAULT_DIR,
 * FILES_S3_*). See docs/files.md.
 */
import pg from 'pg';
import { parseArgs } from 'node:util';
import { ConfigError, FILES_STORES, loadConfig, type FilesStoreName } from '../../config/app-config.js';
import { DatabaseUnreachableError } from '../../prisma/database-reachable.js';
import { pendingMigrations } from '../../prisma/migrate.js';
import { guardPool } from '../../prisma/pg-connection-loss.js';
import { MigrationBusyError, migrateBlobs } from './blob-migration.js';
import { StoreUnavailableError } from './blob-store.js';
import { BlobStores } from './blob-stores.js';

const USAGE = `usage: npm run files:migrate -- --to <${FILES_STORES.join('|')}> [--from <store>] [--batch <n>]`;

function storeName(value: string | undefined, flag: string): FilesStoreName | undefined {
  if (value === undefined) return undefined;
  if (!(FILES_STORES as readonly string[]).includes(value))
    throw new Error(`${flag}: "${value}" is not one of ${FILES_STORES.join(', ')}`);
  return value as FilesStoreName;
}

async function main(): Promise<number> {
  let to: FilesStoreName | undefined;
  let from: FilesStoreName | undefined;
  let batch: number;
  try {
    const { values } = parseArgs({
      options: { to: { type: 'string' }, from: { type: 'string' }, batch: { type: 'string', default: '100' } },
      strict: true,
    });
    to = storeName(values.to, '--to');
    from = storeName(values.from, '--from');
    batch = Number(values.batch);
    if (!to) throw new Error('--to is required');
    if (from === to) throw new Error('--from and --to name the same store');
    if (!Number.isInteger(batch) || batch < 1 || batch > 10_000) throw new Error('--batch: a number from 1 to 10000');
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  if (!config.databaseUrl) {
    console.error('files:migrate needs DATABASE_URL: the embedded database keeps file bytes in PostgreSQL only');
    return 2;
  }
  const pending = await pendingMigrations(config.databaseUrl);
  if (pending.length) {
    console.error(
      `the database is not migrated (${pending.join(', ')} pending): start the service once, or run npx prisma migrate deploy`,
    );
    return 1;
  }
  // A lost connection fails the blob being moved (or the run), never the process mid-move.
  const pool = guardPool(new pg.Pool({ connectionString: config.databaseUrl, max: 3 }), (m) => console.warn(m));
  const stores = new BlobStores(pool, { ...config, filesStore: to });
  try {
    for (const warning of await stores.open()) console.warn(warning);
    stores.get(to);
    if (config.filesStore !== to) {
      console.warn(`FILES_STORE is ${config.filesStore}: instances configured so keep writing new files there`);
    }
    let done = 0;
    const result = await migrateBlobs(stores, {
      to,
      from,
      batch,
      progress: (event) => {
        if (event.kind === 'failed') console.error(`${event.sha256}: not moved: ${event.reason}`);
        if (++done % 1000 === 0) console.log(`${done} blobs done`);
      },
    });
    if (result.leftovers) console.log(`removed ${result.leftovers} temporary copies left by an interrupted run`);
    console.log(
      `moved ${result.moved} blobs (${result.bytes} bytes) to ${to}; ${result.skipped} deleted or moved meanwhile, ` +
        `${result.failed} failed${result.failed ? ' (left where they are: run again to retry)' : ''}`,
    );
    return result.failed ? 1 : 0;
  } catch (e) {
    if (e instanceof MigrationBusyError || e instanceof StoreUnavailableError) {
      console.error(e.message);
      return 1;
    }
    throw e;
  } finally {
    await stores.close();
    await pool.end();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof ConfigError || e instanceof DatabaseUnreachableError) console.error(e.message);
    else console.error(e);
    process.exit(1);
  },
);
