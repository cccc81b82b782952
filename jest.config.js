// Jest runs the suites in tests/ as native ES modules (node --experimental-vm-modules,
// see the "jest" npm script) against the built package in dist/, which is what
// users install. No transform: tests are plain .mjs.
export default {
  testEnvironment: 'node',
  transform: {},
  moduleNameMapper: {
    '^cuckoo-bloom-wasm$': '<rootDir>/dist/index.js',
    '^cuckoo-bloom-wasm/redis$': '<rootDir>/dist/redis.mjs',
  },
  testMatch: ['<rootDir>/tests/**/*.test.mjs'],
  globalSetup: '<rootDir>/tests/global-setup.mjs',
  // The longest suites first, from a committed list of one run's times (a fresh machine has
  // no cache of the last run): tests/helpers/longest-first-sequencer.mjs.
  testSequencer: '<rootDir>/tests/helpers/longest-first-sequencer.mjs',
  testTimeout: 180000,
  maxWorkers: 2,
};
