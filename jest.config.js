/**
 * Jest runs the TypeScript sources as ES modules (NestJS 12 is ESM-only) through ts-jest, in three
 * projects, one per tier of tests:
 * - `unit`: src/**\/*.spec.ts, next to the code, and the few test/**\/*.spec.ts of the test
 *   tooling and build scripts: no database, no build;
 * - `medium`: test/medium/*.medium-spec.ts, services from their real providers without HTTP, each
 *   file on a copy of the run's template database;
 * - `e2e`: test/**\/*.e2e-spec.ts, the whole application against the PostgreSQL database created
 *   for the run by test/global-setup.mjs (from that template) and dropped afterwards.
 * `medium` and `e2e` name the same global setup and teardown: Jest runs a hook once per distinct
 * file, so a run of both makes one template and one run's database, shared by the two.
 * `npm test` runs all three; `npm run test:unit`, `test:medium`, `test:e2e` one each.
 */
// Every test runs the transaction check (src/prisma/transactions.ts): a statement made through
// the service's database handle inside one of its transactions fails the request that made it.
// Set before any test, global setup or server the tests start reads it (they inherit it).
process.env.DB_CHECK_TRANSACTIONS ??= '1';

const typescript = {
  testEnvironment: 'node',
  rootDir: '.',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
  },
  slowTestThreshold: 30,
  testTimeout: 60000,
};

const database = {
  ...typescript,
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
};

/** @type {import('jest').Config} */
export default {
  projects: [
    { ...typescript, displayName: 'unit', roots: ['<rootDir>/src', '<rootDir>/test'], testMatch: ['**/*.spec.ts'] },
    { ...database, displayName: 'medium', roots: ['<rootDir>/test/medium'], testMatch: ['**/*.medium-spec.ts'] },
    { ...database, displayName: 'e2e', roots: ['<rootDir>/test'], testMatch: ['**/*.e2e-spec.ts'] },
  ],
  reporters: ['default', '<rootDir>/test/summary-reporter.mjs'],
  testTimeout: 60000,
  // One test file at a time (they share the run's database), in a worker process that is replaced
  // once it holds more than this after a file: each file loads the application's modules afresh
  // (ES modules in vm contexts), and one process running every file ran out of heap.
  workerIdleMemoryLimit: '1536MB',
};
