import 'reflect-metadata';
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import type { Logger } from 'pino';
import { createLogger, PinoNestLogger } from './common/logger.js';
import { standardCatalog } from './catalog/catalog-load.js';
import { CatalogError } from './catalog/catalog-model.js';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config.js';
import { EventWakeups } from './events/event-wakeups.js';
import { seedDemoData } from './import/demo-seed.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './prisma/embedded-postgres.js';
import { applyMigrations } from './prisma/migrate.js';
import { checkPatchedVersions } from './patches/versions.js';

async function main(): Promise<void> {
  // The patches of library internals (src/patches) fail the start on versions they were not written for.
  checkPatchedVersions();
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  try {
    standardCatalog();
  } catch (e) {
    if (e instanceof CatalogError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const logger = createLogger(config.logLevel);

  let embedded: EmbeddedPostgres | undefined;
  if (!config.databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort);
    // It serves one connection at a time: no connection can be kept listening for notices.
    config = { ...config, databaseUrl: embedded.url, embeddedDatabase: true, dbPoolMax: 1, authNotices: false };
    logger.info(`no DATABASE_URL: using the embedded PostgreSQL (PGlite) in ${config.dataDir}/pglite`);
  }

  if (config.migrateOnStart) {
    const applied = await applyMigrations(config.databaseUrl);
    logger.info(
      applied.length
        ? `applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.join(', ')}`
        : 'no pending migrations: the database schema is up to date',
    );
  } else {
    logger.info('MIGRATE_ON_START=false: run `npx prisma migrate deploy` to apply pending migrations');
  }

  const seedDemo = config.seedDemoData ?? Boolean(embedded);
  if (seedDemo && (await seedDemoData(config.databaseUrl, { onlyIfEmpty: true, files: config }))) {
    logger.info('loaded the demo data (users admin/admin, alice/alice-pw, bob/bob-pw, carol/carol-pw)');
  }

  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
  });
  await configureApp(app, config, logger);
  await app.listen(config.port, config.host);
  const server = app.getHttpServer() as Server;
  handleShutdown(
    server,
    async () => {
      // Stop accepting and let in-flight requests finish before Nest's destroy hooks close the pool;
      // long polls of the events feed answer at once rather than after their wait.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      app.get(EventWakeups).close();
      await closed;
      await app.close();
      await embedded?.stop();
    },
    config.shutdownTimeoutMs,
    logger,
  );
  const url = `http://localhost:${config.port}${config.basePath}`;
  logger.info(`serving on ${url} (Swagger UI: ${url}/docs)`);
  if (embedded) logger.info(`try: curl -u alice:alice-pw ${url}/files/version`);
}

/**
 * On SIGTERM or SIGINT: stop accepting, finish in-flight requests, close the pool, exit 0.
 * SHUTDOWN_TIMEOUT_MS outlasts the longest database wait of a request (config/timeout-config.ts),
 * so reports and query opens under way finish as uploads do. Past it (a client that stopped
 * sending its upload, say) the connections still open are closed, each request logged as it ends
 * (499), and the shutdown goes on to close the pools; the exit code is then 1.
 */
function handleShutdown(server: Server, close: () => Promise<void>, timeoutMs: number, logger: Logger): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info(`${signal}: shutting down`);
    const timer = setTimeout(() => {
      logger.error(`SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms) passed: closing the connections still open`);
      process.exitCode = 1;
      server.closeAllConnections();
      // Should closing the pools hang too, a second more is all it gets.
      setTimeout(() => process.exit(1), 1000).unref();
    }, timeoutMs);
    timer.unref();
    close().then(
      () => process.exit(),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
