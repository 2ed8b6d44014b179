/**
 * npm run import -- <file.json>
 * Loads a pdm-dataset/1 file into DATABASE_URL (or, without it, into the embedded database
 * under DATA_DIR; stop the service first). One transaction: all or nothing.
 */
import { loadConfig } from '../config/app-config.js';
import { startEmbeddedPostgres } from '../prisma/embedded-postgres.js';
import { applyMigrations } from '../prisma/migrate.js';
import { DatasetError } from './dataset.js';
import { importFile } from './import-file.js';

async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    console.error('usage: npm run import -- <dataset.json>');
    return 2;
  }
  const config = loadConfig();
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir);
  try {
    const url = embedded?.url ?? config.databaseUrl;
    if (embedded) await applyMigrations(url);
    const started = Date.now();
    const summary = await importFile(file, url);
    const counts = Object.entries(summary)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    console.log(`imported ${file}: ${counts} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return 0;
  } catch (e) {
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
