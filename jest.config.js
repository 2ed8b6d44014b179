/**
 * Jest runs the TypeScript sources as ES modules (NestJS 12 is ESM-only) through ts-jest.
 * Unit specs sit next to the code (src/**\/*.spec.ts); end-to-end specs under test/ run against
 * a PostgreSQL database created for the run by test/global-setup.mjs and dropped afterwards.
 */
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
  },
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  reporters: ['default', '<rootDir>/test/summary-reporter.mjs'],
  testTimeout: 60000,
  slowTestThreshold: 30,
};
