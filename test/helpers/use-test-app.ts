import type { Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { App } from 'supertest/types.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { createTestApp, type TestApp } from './test-app.js';

/** The application of one describe block: what createTestApp gives, plus its providers. */
export interface TestAppHandle extends TestApp {
  /** A provider of the running application, e.g. `t.get(NumbersService)`. */
  get<T>(type: Type<T>): T;
}

/**
 * Starts the whole application before the tests of the enclosing describe block (or file) and
 * closes it after them. The handle is usable inside tests and later hooks; `env` as for
 * createTestApp, or a function giving it when it depends on an earlier hook.
 */
export function useTestApp(env: Record<string, string> | (() => Record<string, string>) = {}): TestAppHandle {
  let current: TestApp | undefined;
  const started = (): TestApp => {
    if (!current) throw new Error('the test application is not started: use the handle inside tests and hooks');
    return current;
  };
  beforeAll(async () => {
    current = await createTestApp(typeof env === 'function' ? env() : env);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    get app(): NestExpressApplication {
      return started().app;
    },
    get http(): App {
      return started().http;
    },
    get config(): AppConfig {
      return started().config;
    },
    close: () => started().close(),
    get: <T>(type: Type<T>): T => started().app.get(type),
  };
}
