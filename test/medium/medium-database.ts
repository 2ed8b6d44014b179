import type { ModuleMetadata, Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import pg from 'pg';
import { CatalogModule } from '../../src/catalog/catalog.module.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { ConfigModule } from '../../src/config/config.module.js';
import { PrismaModule } from '../../src/prisma/prisma.module.js';
import { scratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.js';
import { embeddedTestRun } from '../helpers/test-database.js';

/**
 * A database of the file's own, with the demo data: on a server a copy of the run's migrated
 * template database (CREATE DATABASE … TEMPLATE, dropped WITH (FORCE) afterwards), on an
 * embedded run an embedded database migrated and seeded for the file.
 */
export function mediumDatabase(): Promise<ScratchDatabase> {
  return scratchDatabase({ demo: true });
}

/** The services of a medium test, on the file's database. */
export interface MediumServices {
  /** A provider of the module, e.g. `s.get(NumbersService)`. */
  get<T>(type: Type<T>): T;
  /** The configuration the services were given. */
  readonly config: AppConfig;
  /** A pool of two connections on the file's database, for arranging rows and checking them. */
  readonly pool: pg.Pool;
}

/**
 * Before the tests of the enclosing block: a database of their own (mediumDatabase) and a Nest
 * module of only the providers they name, on the real configuration, Prisma, database pools and
 * type catalog, with no HTTP; after them, the module closes and the database is dropped.
 * `env` adds to the configuration (LOG_LEVEL silent, DATABASE_URL the file's database).
 */
export function useServices(metadata: Pick<ModuleMetadata, 'imports' | 'providers'>, env: Record<string, string> = {}) {
  let db: ScratchDatabase | undefined;
  let moduleRef: TestingModule | undefined;
  let pool: pg.Pool | undefined;
  let config: AppConfig | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the services are not started: use them inside tests and hooks');
    return value;
  };
  beforeAll(async () => {
    db = await mediumDatabase();
    // The embedded database serves one connection at a time and cannot keep one listening.
    const embedded = embeddedTestRun() ? { DB_POOL_MAX: '1', AUTH_NOTICES: 'false' } : {};
    config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', ...embedded, ...env, DATABASE_URL: db.url });
    moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(config), PrismaModule, CatalogModule, ...(metadata.imports ?? [])],
      providers: metadata.providers ?? [],
    }).compile();
    await moduleRef.init();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    // Its idle connections end when the database is dropped (WITH FORCE): not an unhandled error.
    pool.on('error', () => undefined);
  });
  afterAll(async () => {
    await moduleRef?.close();
    await pool?.end();
    await db?.drop();
  });
  const services: MediumServices = {
    get: <T>(type: Type<T>): T => ready(moduleRef).get(type),
    get config() {
      return ready(config);
    },
    get pool() {
      return ready(pool);
    },
  };
  return services;
}
