/** Jest runs in native ESM mode: NestJS 12 is ESM-only (see CONTRIBUTING.md, "Layout and conventions"). */
const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
};

export default {
  // Jest reads the timeout at the top level only; e2e tests start apps and databases.
  testTimeout: 30000,
  // `npm test` runs the suites one at a time in one worker process (--maxWorkers=1), which Jest
  // replaces once it holds more than this after a suite: modules loaded in ESM mode are kept per suite,
  // and a single process running all of them in a row ran out of heap.
  workerIdleMemoryLimit: '1GB',
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
    },
  ],
};
