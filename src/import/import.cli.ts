/**
 * npm run import -- [--as <user>] <file.json> (in a clone: builds first when a source changed),
 * or without building, as in the production image: npm run import:prod -- [--as <user>] <file.json>
 * (node dist/src/import/import.cli.js <file>).
 * A file name `-` reads the dataset from standard input (for `docker compose exec -T`).
 * `--as` names the importing user (default admin): the creator of records without `createdBy`,
 * and the user of the import's audit event; it must be a user, stored or in the dataset.
 * Loads a pdm-dataset/1 file into DATABASE_URL (or, without it, into the embedded database
 * under DATA_DIR; stop the service first). One transaction: all or nothing. File bytes go to
 * FILES_STORE (see import-blobs.ts). How far it is goes to standard error (import-progress.ts).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/app-config.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../prisma/embedded-postgres.js';
import { applyMigrations, pendingMigrations } from '../prisma/migrate.js';
import { checkPatchedVersions } from '../patches/versions.js';
import { DatasetError } from './dataset.js';
import { importFile, importText } from './import-file.js';
import { ImportProgressReporter } from './import-progress.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const USAGE =
  'usage: npm run import -- [--as <user>] <dataset.json>   (- reads standard input; --as: the importing user, default admin)';

/** The file and the importing user named on the command line; null when they do not make sense. */
function commandLine(): { file: string; as: string | undefined } | null {
  try {
    const { values, positionals } = parseArgs({
      args: process.argv.slice(2),
      options: { as: { type: 'string' } },
      allowPositionals: true,
    });
    if (positionals.length !== 1 || values.as?.trim() === '') return null;
    return { file: positionals[0], as: values.as };
  } catch {
    return null;
  }
}

async function main(): Promise<number> {
  // The patches of library internals (src/patches) fail the import on versions they were not written for.
  checkPatchedVersions();
  const args = commandLine();
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  const { file } = args;
  const config = loadConfig();
  const source = file === '-' ? 'standard input' : file;
  const reporter = new ImportProgressReporter(process.stderr, source);
  let embedded: EmbeddedPostgres | undefined;
  try {
    if (!config.databaseUrl) {
      reporter.note(`starting the embedded database in ${config.dataDir} …`);
      embedded = await startEmbeddedPostgres(config.dataDir);
    }
    const url = embedded?.url ?? config.databaseUrl;
    if (embedded) await applyMigrations(url);
    const pending = await pendingMigrations(url);
    if (pending.length) {
      reporter.finish();
      console.error(
        `import failed, nothing was stored: the database is not migrated (${pending.length} pending: ` +
          `${pending.join(', ')}); apply the migrations first with \`npx prisma migrate deploy\` ` +
          '(or start the service once, which applies them)',
      );
      return 1;
    }
    const started = Date.now();
    reporter.note(`checking ${source} …`);
    // File bytes go to FILES_STORE, as uploads' do.
    const options = {
      lifecycle: config.objectsLifecycle,
      maxLinks: config.objectsMaxLinks,
      files: config,
      importingUser: args.as,
      progress: reporter.update.bind(reporter),
    };
    const summary =
      file === '-' ? await importText(await readStdin(), source, url, options) : await importFile(file, url, options);
    reporter.finish();
    const counts = Object.entries(summary)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    console.log(`imported ${source}: ${counts} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return 0;
  } catch (e) {
    reporter.finish();
    if (e instanceof DatasetError) {
      console.error(`import failed, nothing was stored: ${e.message}`);
      return 1;
    }
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      console.error(`import failed: no file ${file}`);
      return 1;
    }
    throw e;
  } finally {
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`import failed, nothing was stored: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
