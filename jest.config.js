/**
 * Jest runs the TypeScript sources as ES modules (NestJS 12 is ESM-only) through ts-jest, in two
 * projects: `unit` (src/**\/*.spec.ts, next to the code: no database, no build) and `database`:
 * medium specs (test/medium/*.medium-spec.ts) run services on a copy of the run's template
 * database each, end-to-end specs under test/ run the whole application against a PostgreSQL
 * database created for the run by test/global-setup.mjs (from that template) and dropped
 * afterwards. `npm test` runs both; `npm run test:unit` the first alone.
 */
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

/** @type {import('jest').Config} */
export default {
  projects: [
    { ...typescript, displayName: 'unit', roots: ['<rootDir>/src'], testMatch: ['**/*.spec.ts'] },
    {
      ...typescript,
      displayName: 'database',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.medium-spec.ts', '**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/global-setup.mjs',
      globalTeardown: '<rootDir>/test/global-teardown.mjs',
    },
  ],
  reporters: ['default', '<rootDir>/test/summary-reporter.mjs'],
  testTimeout: 60000,
  // One test file at a time (they share the run's database), in a worker process that is replaced
  // once it holds more than this after a file: each file loads the application's modules afresh
  // (ES modules in vm contexts), and one process running every file ran out of heap.
  workerIdleMemoryLimit: '1536MB',
};
