import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { App } from 'supertest/types.js';
import { AppModule } from '../../src/app.module.js';
import { configureApp } from '../../src/app.setup.js';
import { Clock } from '../../src/common/clock.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { embeddedTestRun, testDatabaseUrl } from './test-database.js';

export interface TestApp {
  app: NestExpressApplication;
  http: App;
  config: AppConfig;
  close(): Promise<void>;
}

/** What a test replaces in the application: `clock` for the one expiring state is measured against. */
export interface TestAppOverrides {
  clock?: Clock;
}

/** The whole application on the run's test database, configured exactly as main.ts does. */
export async function createTestApp(
  env: Record<string, string> = {},
  overrides: TestAppOverrides = {},
): Promise<TestApp> {
  // On the embedded database no connection can be kept listening, as main.ts knows.
  const defaults = embeddedTestRun() ? { AUTH_NOTICES: 'false' } : {};
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    ...defaults,
    ...process.env,
    DATABASE_URL: testDatabaseUrl(),
    ...env,
  });
  const builder = Test.createTestingModule({ imports: [AppModule.forRoot(config)] });
  if (overrides.clock) builder.overrideProvider(Clock).useValue(overrides.clock);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: ['error'] });
  await configureApp(app, config);
  await app.init();
  return { app, http: app.getHttpServer() as App, config, close: () => app.close() };
}

/** Demo users and their passwords (prisma/demo-dataset.json). */
export const USERS = {
  admin: ['admin', 'admin'],
  alice: ['alice', 'alice-pw'],
  bob: ['bob', 'bob-pw'],
  carol: ['carol', 'carol-pw'],
} as const satisfies Record<string, readonly [string, string]>;
